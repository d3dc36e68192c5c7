package dev.modelgateway.accounts.limits;

/**
 * A call's claim on its key from admission to its ledger record: one concurrency slot and, for a key with a
 * budget, a reservation of the most the call may cost (docs/accounts.md, "Concurrency" and "Budgets").
 */
public interface Hold {
    /** Gives the slot and the reservation back; later calls are ignored. */
    void release();
}
