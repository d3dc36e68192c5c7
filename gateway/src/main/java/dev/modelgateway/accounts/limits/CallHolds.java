package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.ledger.SpendTracker;
import io.vertx.core.Future;

import java.time.Instant;

/**
 * The calls each key has in flight: their concurrency slots and budget reservations, counted in this process
 * or, with Redis, across every instance (docs/accounts.md, "Concurrency").
 */
public sealed interface CallHolds permits LocalHolds, RedisHolds {

    /** Takes a slot and, for a key with a budget, reserves the call's maximum; or says which limit refuses. */
    Future<HoldDecision> take(HoldRequest request);

    /**
     * A recorded call's cost, for budget checks where holds are shared: other instances learn of it before the
     * ledger has it. Never fails; locally there is nothing to do ({@link SpendTracker} has it already).
     */
    void spent(String holder, Instant at, long costE10);

    Future<Void> close();
}
