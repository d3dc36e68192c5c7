package dev.modelgateway.accounts.ledger;

import dev.modelgateway.accounts.keys.BudgetPeriod;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each holder's spend (a key's, or a team's under {@code team:<id>}) per budget span ({@link BudgetPeriod#of}), for
 * budget checks without a query per request: what the database holds (refreshed periodically, so other instances'
 * spend shows up) plus what this instance has queued but not written. Only the ledger writer thread changes the
 * committed side, so a refresh never races a commit.
 */
public final class SpendTracker {
    private volatile Map<String, Long> committed = new ConcurrentHashMap<>();
    private final Map<String, Long> pending = new ConcurrentHashMap<>();
    /** The most that calls admitted but not yet recorded may cost, per holder (docs/accounts.md, "Budgets"). */
    private final Map<String, Long> reserved = new ConcurrentHashMap<>();

    static String slot(String holder, String period) {
        return holder + "|" + period;
    }

    public long spentE10(String holder, String period) {
        String slot = slot(holder, period);
        return committed.getOrDefault(slot, 0L) + pending.getOrDefault(slot, 0L);
    }

    /** A key's spend over its whole life. */
    public long spentE10(String keyId) {
        return spentE10(keyId, BudgetPeriod.LIFETIME.of(Instant.EPOCH));
    }

    /**
     * Reserves {@code e10} for a call unless what is spent in {@code period} and already reserved has reached
     * {@code budgetE10}: one atomic step per holder, so two calls admitted at once on different event loops cannot
     * both see the budget free.
     */
    public boolean tryReserve(String holder, String period, long e10, long budgetE10) {
        boolean[] granted = {false};
        reserved.compute(holder, (k, held) -> {
            long now = held == null ? 0 : held;
            if (spentE10(holder, period) + now >= budgetE10) return held;
            granted[0] = true;
            return e10 > 0 ? now + e10 : held;
        });
        return granted[0];
    }

    public void release(String holder, long e10) {
        if (e10 > 0) reserved.computeIfPresent(holder, (k, v) -> v - e10 <= 0 ? null : v - e10);
    }

    void queued(LedgerEntry e) {
        change(pending, e, e.costE10());
    }

    void written(List<LedgerEntry> batch) {
        for (LedgerEntry e : batch) {
            change(committed, e, e.costE10());
            change(pending, e, -e.costE10());
        }
    }

    /** Entries that could not be written are no longer spend either. */
    void dropped(List<LedgerEntry> batch) {
        batch.forEach(e -> change(pending, e, -e.costE10()));
    }

    /** What the database holds for the spans current now, by {@link #slot}. */
    public void refreshed(Map<String, Long> fromDatabase) {
        committed = new ConcurrentHashMap<>(fromDatabase);
    }

    private static void change(Map<String, Long> sums, LedgerEntry e, long delta) {
        if (delta == 0) return;
        List<String> periods = BudgetPeriod.all(e.at()); // once per entry, not per holder: LocalDate arithmetic
        for (String holder : e.holders()) {
            for (String period : periods) {
                sums.compute(slot(holder, period), (k, v) -> {
                    long sum = (v == null ? 0 : v) + delta;
                    return sum == 0 ? null : sum;
                });
            }
        }
    }
}
