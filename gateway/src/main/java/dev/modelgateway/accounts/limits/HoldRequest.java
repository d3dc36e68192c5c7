package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.keys.BudgetPeriod;

/**
 * What a call asks of its key at admission.
 *
 * @param holder        a key id, or {@code team:<id>}
 * @param period        the budget's current span ({@link BudgetPeriod#of}), whose spend the budget is checked against
 * @param maxConcurrent calls the key may have in flight, this one included; 0 = no bound
 * @param budgetE10     the key's budget in 1e-10 USD; -1 when it has none
 * @param reserveE10    the most this call may cost, held against the budget until it is recorded
 * @param spentE10      what this instance knows the key has spent (the database plus its own unwritten records)
 */
public record HoldRequest(String holder, String period, int maxConcurrent, long budgetE10, long reserveE10, long spentE10) {

    boolean budgeted() {
        return budgetE10 >= 0;
    }
}
