/**
 * What a call may take before it starts: per-minute token buckets per key, model glob and team (in process, or
 * shared through Redis: {@code RedisRateLimiter}, {@code BucketShares}), calls in flight and budget reservations
 * ({@code CallHolds}: in process or as Redis leases), and a holder's budget in its period ({@code Budget}).
 *
 * <p>Uses keys and ledger (the spend). Redis runs on the event loops ({@code EventLoopRedis}).
 */
package dev.modelgateway.accounts.limits;
