package dev.modelgateway.accounts;

import dev.modelgateway.accounts.limits.Hold;

import java.util.Map;

/**
 * An admission holding a concurrency slot and part of its key's budget for as long as the call runs: concurrent
 * calls see the reservation as spent, so together they cannot overshoot the budget by more than one call's
 * maximum (docs/accounts.md).
 */
final class HeldAdmission implements Admission {
    private final Admission limits;
    private final Hold hold;

    HeldAdmission(Admission limits, Hold hold) {
        this.limits = limits;
        this.hold = hold;
    }

    @Override
    public Map<String, String> headers() {
        return limits.headers();
    }

    @Override
    public void settle(long actualTokens) {
        limits.settle(actualTokens);
        hold.release();
    }

    @Override
    public void releaseHold() {
        hold.release();
    }
}
