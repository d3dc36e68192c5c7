package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.ledger.SpendTracker;
import io.vertx.core.Future;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Holds counted in this process: exact across its event loops, since each key's count changes in one atomic
 * step; with several instances and no Redis, a key may have up to instances × {@code max_concurrent} calls.
 */
public final class LocalHolds implements CallHolds {
    private final SpendTracker spend;
    private final Map<String, Integer> inFlight = new ConcurrentHashMap<>();

    public LocalHolds(SpendTracker spend) {
        this.spend = spend;
    }

    @Override
    public Future<HoldDecision> take(HoldRequest request) {
        return Future.succeededFuture(takeNow(request));
    }

    /** The decision at once, also for {@link RedisHolds} when Redis does not answer. */
    HoldDecision takeNow(HoldRequest r) {
        if (!enter(r.holder(), r.maxConcurrent())) return HoldDecision.refused(HoldDecision.Refusal.CONCURRENCY);
        if (r.budgeted() && !spend.tryReserve(r.holder(), r.period(), r.reserveE10(), r.budgetE10())) {
            leave(r.holder());
            return HoldDecision.refused(HoldDecision.Refusal.BUDGET_RESERVED);
        }
        AtomicBoolean released = new AtomicBoolean();
        return HoldDecision.granted(() -> {
            if (!released.compareAndSet(false, true)) return;
            if (r.budgeted()) spend.release(r.holder(), r.reserveE10());
            leave(r.holder());
        });
    }

    @Override
    public void spent(String holder, Instant at, long costE10) {
    }

    @Override
    public Future<Void> close() {
        return Future.succeededFuture();
    }

    /** Counts the call in unless the key is at {@code max} (0: no bound). */
    private boolean enter(String keyId, int max) {
        boolean[] entered = {false};
        inFlight.compute(keyId, (k, n) -> {
            int now = n == null ? 0 : n;
            if (max > 0 && now >= max) return n;
            entered[0] = true;
            return now + 1;
        });
        return entered[0];
    }

    private void leave(String keyId) {
        inFlight.computeIfPresent(keyId, (k, n) -> n <= 1 ? null : n - 1);
    }
}
