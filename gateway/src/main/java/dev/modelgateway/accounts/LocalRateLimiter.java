package dev.modelgateway.accounts;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.vertx.core.Future;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Buckets in this process, for a single instance without Redis. */
final class LocalRateLimiter implements RateLimiter {

    /** A key's buckets untouched for a while are full again, so forgetting them changes nothing. */
    private final Cache<String, KeyBuckets> keys = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10))
            .build();
    private final InstantSource clock;

    LocalRateLimiter(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    public Future<List<RateDecision>> acquire(List<RateScope> scopes, long estimatedTokens) {
        return Future.succeededFuture(bucketsOf(scopes).acquire(scopes, estimatedTokens, clock.millis()));
    }

    @Override
    public Future<Void> adjust(List<RateScope> scopes, long tokenDelta) {
        bucketsOf(scopes).adjust(scopes, tokenDelta, clock.millis());
        return Future.succeededFuture();
    }

    @Override
    public Future<List<RateDecision>> peek(List<RateScope> scopes) {
        return Future.succeededFuture(bucketsOf(scopes).peek(scopes, clock.millis()));
    }

    @Override
    public Future<Void> close() {
        return Future.succeededFuture();
    }

    /** Every scope of one request belongs to the same API key. */
    private KeyBuckets bucketsOf(List<RateScope> scopes) {
        return keys.get(scopes.getFirst().keyId(), id -> new KeyBuckets());
    }

    /** One API key's bucket pairs by scope; its lock makes a multi-scope acquire atomic. */
    private static final class KeyBuckets {
        private final Map<String, Buckets> byScope = new HashMap<>();

        synchronized List<RateDecision> acquire(List<RateScope> scopes, long estimatedTokens, long now) {
            long[] waits = new long[scopes.size()];
            boolean allowed = true;
            for (int i = 0; i < scopes.size(); i++) {
                waits[i] = buckets(scopes.get(i), now).wait(scopes.get(i).limits(), estimatedTokens);
                allowed &= waits[i] == 0;
            }
            List<RateDecision> decisions = new ArrayList<>(scopes.size());
            for (int i = 0; i < scopes.size(); i++) {
                Buckets b = byScope.get(scopes.get(i).bucket());
                if (allowed) b.take(scopes.get(i).limits(), estimatedTokens);
                decisions.add(b.decision(allowed, scopes.get(i).limits(), waits[i]));
            }
            return decisions;
        }

        synchronized void adjust(List<RateScope> scopes, long tokenDelta, long now) {
            for (RateScope s : scopes) buckets(s, now).adjust(s.limits(), tokenDelta);
        }

        synchronized List<RateDecision> peek(List<RateScope> scopes, long now) {
            return scopes.stream().map(s -> buckets(s, now).decision(true, s.limits(), 0)).toList();
        }

        /** The scope's buckets, refilled up to {@code now}. */
        private Buckets buckets(RateScope scope, long now) {
            Buckets b = byScope.computeIfAbsent(scope.bucket(), k -> new Buckets(scope.limits(), now));
            b.refill(scope.limits(), now);
            return b;
        }
    }

    /** A request bucket and a token bucket; mirrors the Redis script, so both limiters behave alike. */
    private static final class Buckets {
        private double requests;
        private double tokens;
        private long at;

        Buckets(RateLimits limits, long at) {
            this.requests = limits.rpm();
            this.tokens = limits.tpm();
            this.at = at;
        }

        long wait(RateLimits limits, long estimatedTokens) {
            long wait = limits.rpm() > 0 ? RateLimits.msUntil(requests, 1, limits.rpm()) : 0;
            if (limits.tpm() > 0) {
                wait = Math.max(wait, RateLimits.msUntil(tokens, limits.tokensNeeded(estimatedTokens), limits.tpm()));
            }
            return wait;
        }

        void take(RateLimits limits, long estimatedTokens) {
            if (limits.rpm() > 0) requests -= 1;
            if (limits.tpm() > 0) tokens -= Math.max(estimatedTokens, 0);
        }

        void adjust(RateLimits limits, long tokenDelta) {
            if (limits.tpm() > 0) tokens = Math.min(limits.tpm(), tokens - tokenDelta);
        }

        RateDecision decision(boolean allowed, RateLimits limits, long wait) {
            return new RateDecision(allowed, limits, requests, tokens, wait);
        }

        void refill(RateLimits limits, long now) {
            long elapsed = now - at;
            requests = RateLimits.refill(requests, limits.rpm(), elapsed);
            tokens = RateLimits.refill(tokens, limits.tpm(), elapsed);
            at = Math.max(at, now);
        }
    }
}
