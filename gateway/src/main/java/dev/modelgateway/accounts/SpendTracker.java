package dev.modelgateway.accounts;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each key's spend for budget checks without a query per request: what the database holds (refreshed
 * periodically, so other instances' spend shows up) plus what this instance has queued but not written.
 * Only the ledger writer thread changes the committed side, so a refresh never races a commit.
 */
final class SpendTracker {
    private volatile Map<String, Long> committed = new ConcurrentHashMap<>();
    private final Map<String, Long> pending = new ConcurrentHashMap<>();
    /** The most that calls admitted but not yet recorded may cost, per key (docs/accounts.md, "Budgets"). */
    private final Map<String, Long> reserved = new ConcurrentHashMap<>();

    long spentE10(String keyId) {
        return committed.getOrDefault(keyId, 0L) + pending.getOrDefault(keyId, 0L);
    }

    /**
     * Reserves {@code e10} for a call unless what is spent and already reserved has reached {@code budgetE10}: one
     * atomic step per key, so two calls admitted at once on different event loops cannot both see the budget free.
     */
    boolean tryReserve(String keyId, long e10, long budgetE10) {
        boolean[] granted = {false};
        reserved.compute(keyId, (k, held) -> {
            long now = held == null ? 0 : held;
            if (spentE10(keyId) + now >= budgetE10) return held;
            granted[0] = true;
            return e10 > 0 ? now + e10 : held;
        });
        return granted[0];
    }

    void release(String keyId, long e10) {
        if (e10 > 0) reserved.computeIfPresent(keyId, (k, v) -> v - e10 <= 0 ? null : v - e10);
    }

    void queued(LedgerEntry e) {
        pending.merge(e.keyId(), e.costE10(), Long::sum);
    }

    void written(List<LedgerEntry> batch) {
        for (LedgerEntry e : batch) {
            committed.merge(e.keyId(), e.costE10(), Long::sum);
            unqueue(e);
        }
    }

    /** Entries that could not be written are no longer spend either. */
    void dropped(List<LedgerEntry> batch) {
        batch.forEach(this::unqueue);
    }

    void refreshed(Map<String, Long> fromDatabase) {
        committed = new ConcurrentHashMap<>(fromDatabase);
    }

    private void unqueue(LedgerEntry e) {
        pending.computeIfPresent(e.keyId(), (k, v) -> v - e.costE10() == 0 ? null : v - e.costE10());
    }
}
