package dev.modelgateway.accounts;

/** What {@link CallHolds#take} answered: a hold, or the limit that refused one ({@code hold} is then null). */
record HoldDecision(Hold hold, Refusal refusal) {

    enum Refusal {
        /** The key has {@code max_concurrent} calls in flight. */
        CONCURRENCY,
        /** What the key has spent and its calls in flight have reserved reach its budget. */
        BUDGET
    }

    static HoldDecision granted(Hold hold) {
        return new HoldDecision(hold, null);
    }

    static HoldDecision refused(Refusal why) {
        return new HoldDecision(null, why);
    }
}
