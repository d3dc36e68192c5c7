package dev.modelgateway.accounts.limits;

/**
 * What {@link CallHolds#take} answered: a hold, or the limit that refused one ({@code hold} is then null).
 *
 * @param spentE10 for {@link Refusal#BUDGET_SPENT}: what the key has spent as far as the holds know
 */
public record HoldDecision(Hold hold, Refusal refusal, long spentE10) {

    public enum Refusal {
        /** The key has {@code max_concurrent} calls in flight. */
        CONCURRENCY,
        /** What the key has spent and its calls in flight have reserved reach its budget. */
        BUDGET_RESERVED,
        /** What the key has spent alone reaches its budget (other instances' spend, known before the ledger has it). */
        BUDGET_SPENT
    }

    public static HoldDecision granted(Hold hold) {
        return new HoldDecision(hold, null, 0);
    }

    static HoldDecision refused(Refusal why) {
        return new HoldDecision(null, why, 0);
    }

    static HoldDecision spent(long spentE10) {
        return new HoldDecision(null, Refusal.BUDGET_SPENT, spentE10);
    }
}
