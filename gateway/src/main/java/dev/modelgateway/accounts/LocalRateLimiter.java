package dev.modelgateway.accounts;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.vertx.core.Future;

import java.time.Duration;
import java.time.InstantSource;

/** Buckets in this process, for a single instance without Redis. */
final class LocalRateLimiter implements RateLimiter {

    /** A bucket pair untouched for a while is full again, so forgetting it changes nothing. */
    private final Cache<String, Buckets> buckets = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10))
            .build();
    private final InstantSource clock;

    LocalRateLimiter(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    public Future<RateDecision> acquire(String keyId, RateLimits limits, long estimatedTokens) {
        return Future.succeededFuture(bucketsOf(keyId, limits).acquire(limits, estimatedTokens, clock.millis()));
    }

    @Override
    public Future<Void> adjust(String keyId, RateLimits limits, long tokenDelta) {
        bucketsOf(keyId, limits).adjust(limits, tokenDelta, clock.millis());
        return Future.succeededFuture();
    }

    @Override
    public Future<RateDecision> peek(String keyId, RateLimits limits) {
        Buckets b = buckets.getIfPresent(keyId);
        return Future.succeededFuture(b == null
                ? new RateDecision(true, limits, limits.rpm(), limits.tpm(), 0)
                : b.peek(limits, clock.millis()));
    }

    @Override
    public Future<Void> close() {
        return Future.succeededFuture();
    }

    private Buckets bucketsOf(String keyId, RateLimits limits) {
        return buckets.get(keyId, id -> new Buckets(limits.rpm(), limits.tpm(), clock.millis()));
    }

    /** Mirrors the Redis script, so both limiters behave alike. */
    private static final class Buckets {
        private double requests;
        private double tokens;
        private long at;

        Buckets(double requests, double tokens, long at) {
            this.requests = requests;
            this.tokens = tokens;
            this.at = at;
        }

        synchronized RateDecision acquire(RateLimits limits, long estimatedTokens, long now) {
            refill(limits, now);
            long wait = 0;
            if (limits.rpm() > 0) wait = RateLimits.msUntil(requests, 1, limits.rpm());
            if (limits.tpm() > 0) {
                wait = Math.max(wait, RateLimits.msUntil(tokens, limits.tokensNeeded(estimatedTokens), limits.tpm()));
            }
            if (wait == 0) {
                if (limits.rpm() > 0) requests -= 1;
                if (limits.tpm() > 0) tokens -= Math.max(estimatedTokens, 0);
            }
            return new RateDecision(wait == 0, limits, requests, tokens, wait);
        }

        synchronized void adjust(RateLimits limits, long tokenDelta, long now) {
            refill(limits, now);
            if (limits.tpm() > 0) tokens = Math.min(limits.tpm(), tokens - tokenDelta);
        }

        synchronized RateDecision peek(RateLimits limits, long now) {
            refill(limits, now);
            return new RateDecision(true, limits, requests, tokens, 0);
        }

        private void refill(RateLimits limits, long now) {
            long elapsed = now - at;
            requests = RateLimits.refill(requests, limits.rpm(), elapsed);
            tokens = RateLimits.refill(tokens, limits.tpm(), elapsed);
            at = Math.max(at, now);
        }
    }
}
