package dev.modelgateway.accounts.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.vertx.core.Future;

import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Buckets in this process, for a single instance without Redis. */
public final class LocalRateLimiter implements RateLimiter {

    /** A holder's buckets untouched for a while are full again, so forgetting them changes nothing. */
    private final Cache<String, HolderBuckets> keys = Caffeine.newBuilder()
            .expireAfterAccess(Duration.ofMinutes(10))
            .build();
    private final InstantSource clock;

    public LocalRateLimiter(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    public Future<List<RateDecision>> acquire(List<RateScope> scopes, long estimatedTokens) {
        long now = clock.millis();
        return Future.succeededFuture(locked(scopes, 0, new Buckets[scopes.size()], now, buckets -> {
            long[] waits = new long[scopes.size()];
            boolean allowed = true;
            for (int i = 0; i < scopes.size(); i++) {
                waits[i] = buckets[i].wait(scopes.get(i).limits(), estimatedTokens);
                allowed &= waits[i] == 0;
            }
            List<RateDecision> decisions = new ArrayList<>(scopes.size());
            for (int i = 0; i < scopes.size(); i++) {
                if (allowed) buckets[i].take(scopes.get(i).limits(), estimatedTokens);
                decisions.add(buckets[i].decision(allowed, scopes.get(i).limits(), waits[i]));
            }
            return decisions;
        }));
    }

    @Override
    public Future<Void> adjust(List<RateScope> scopes, long tokenDelta) {
        locked(scopes, 0, new Buckets[scopes.size()], clock.millis(), buckets -> {
            for (int i = 0; i < scopes.size(); i++) buckets[i].adjust(scopes.get(i).limits(), tokenDelta);
            return null;
        });
        return Future.succeededFuture();
    }

    @Override
    public Future<List<RateDecision>> peek(List<RateScope> scopes) {
        return Future.succeededFuture(locked(scopes, 0, new Buckets[scopes.size()], clock.millis(), buckets -> {
            List<RateDecision> decisions = new ArrayList<>(scopes.size());
            for (int i = 0; i < scopes.size(); i++) decisions.add(buckets[i].decision(true, scopes.get(i).limits(), 0));
            return decisions;
        }));
    }

    @Override
    public Future<Void> close() {
        return Future.succeededFuture();
    }

    /**
     * Runs {@code work} on the scopes' buckets (refilled up to {@code now}) under the locks of every holder they
     * belong to (a key, and its team), taken in one order (the scopes' own: the key's first, the team's last, and
     * a team is never a key) so that a multi-scope acquire is atomic and two acquires cannot deadlock.
     */
    private <T> T locked(List<RateScope> scopes, int from, Buckets[] buckets, long now, Function<Buckets[], T> work) {
        if (from == scopes.size()) return work.apply(buckets);
        HolderBuckets holder = keys.get(scopes.get(from).keyId(), id -> new HolderBuckets());
        synchronized (holder) {
            int next = from;
            while (next < scopes.size() && scopes.get(next).keyId().equals(scopes.get(from).keyId())) {
                buckets[next] = holder.buckets(scopes.get(next), now);
                next++;
            }
            return locked(scopes, next, buckets, now, work);
        }
    }

    /** One holder's bucket pairs by scope. */
    private static final class HolderBuckets {
        private final Map<String, Buckets> byScope = new HashMap<>();

        /** The scope's buckets, refilled up to {@code now}. */
        Buckets buckets(RateScope scope, long now) {
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
