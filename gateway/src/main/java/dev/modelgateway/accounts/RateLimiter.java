package dev.modelgateway.accounts;

import io.vertx.core.Future;

/** Per-key request and token buckets, either in this process or shared by every instance through Redis. */
sealed interface RateLimiter permits LocalRateLimiter, RedisRateLimiter {

    /** Takes one request and {@code estimatedTokens} if both fit; takes nothing otherwise. */
    Future<RateDecision> acquire(String keyId, RateLimits limits, long estimatedTokens);

    /** Gives back (negative) or takes (positive) tokens once the real usage is known. */
    Future<Void> adjust(String keyId, RateLimits limits, long tokenDelta);

    /** The current levels, taking nothing. */
    Future<RateDecision> peek(String keyId, RateLimits limits);

    Future<Void> close();
}
