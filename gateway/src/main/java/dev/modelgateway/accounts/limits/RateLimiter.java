package dev.modelgateway.accounts.limits;

import io.vertx.core.Future;

import java.util.List;

/**
 * Request and token buckets per key (and per key and model glob), either in this process or shared by
 * every instance through Redis. A request draws on several scopes at once: all of them or none.
 */
public sealed interface RateLimiter permits LocalRateLimiter, RedisRateLimiter {

    /**
     * Takes one request and {@code estimatedTokens} from every scope if all have room, else nothing.
     * One decision per scope, in order; each carries its own wait.
     */
    Future<List<RateDecision>> acquire(List<RateScope> scopes, long estimatedTokens);

    /** Gives back (negative) or takes (positive) tokens in every scope with a token limit once the real usage is known. */
    Future<Void> adjust(List<RateScope> scopes, long tokenDelta);

    /** The current levels, taking nothing. */
    Future<List<RateDecision>> peek(List<RateScope> scopes);

    Future<Void> close();
}
