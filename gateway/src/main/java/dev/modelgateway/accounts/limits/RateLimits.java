package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.ApiKey;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.accounts.keys.Team;

/**
 * A key's per-minute limits; 0 means unlimited. Each limit is a token bucket holding up to one
 * minute's allowance and refilling continuously at limit/60 per second.
 */
public record RateLimits(long rpm, long tpm) {

    static final long WINDOW_MS = 60_000;

    public static RateLimits of(ApiKey key) {
        return of(key.rpm(), key.tpm());
    }

    /** A team's shared limits. */
    public static RateLimits of(Team team) {
        return of(team.rpm(), team.tpm());
    }

    /** A key's limits for the models of one glob. */
    public static RateLimits of(ModelLimit limit) {
        return of(limit.rpm(), limit.tpm());
    }

    private static RateLimits of(Long rpm, Long tpm) {
        return new RateLimits(rpm == null ? 0 : rpm, tpm == null ? 0 : tpm);
    }

    public boolean none() {
        return rpm <= 0 && tpm <= 0;
    }

    /** Tokens a request must find in the bucket: a request above the whole minute's allowance waits for a full bucket. */
    long tokensNeeded(long estimated) {
        return Math.min(Math.max(estimated, 0), tpm);
    }

    static double refill(double level, long capacity, long elapsedMs) {
        return Math.min(capacity, level + (double) Math.max(elapsedMs, 0) * capacity / WINDOW_MS);
    }

    static long msUntil(double level, double wanted, long capacity) {
        return level >= wanted ? 0 : (long) Math.ceil((wanted - level) * WINDOW_MS / capacity);
    }
}
