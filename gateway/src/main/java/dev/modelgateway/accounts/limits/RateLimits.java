package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.ApiKey;

/**
 * A key's per-minute limits; 0 means unlimited. Each limit is a token bucket holding up to one
 * minute's allowance and refilling continuously at limit/60 per second.
 */
public record RateLimits(long rpm, long tpm) {

    static final long WINDOW_MS = 60_000;

    public static RateLimits of(ApiKey key) {
        return new RateLimits(key.rpm() == null ? 0 : key.rpm(), key.tpm() == null ? 0 : key.tpm());
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
