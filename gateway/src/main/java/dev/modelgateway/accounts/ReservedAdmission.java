package dev.modelgateway.accounts;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An admission holding part of its key's budget for as long as the call runs: concurrent calls see it as
 * spent, so together they cannot overshoot the budget by more than one call's maximum (docs/accounts.md).
 */
final class ReservedAdmission implements Admission {
    private final Admission limits;
    private final SpendTracker spend;
    private final String keyId;
    private final long reservedE10;
    private final AtomicBoolean released = new AtomicBoolean();

    ReservedAdmission(Admission limits, SpendTracker spend, String keyId, long reservedE10) {
        this.limits = limits;
        this.spend = spend;
        this.keyId = keyId;
        this.reservedE10 = reservedE10;
    }

    @Override
    public Map<String, String> headers() {
        return limits.headers();
    }

    @Override
    public void settle(long actualTokens) {
        limits.settle(actualTokens);
        releaseReservation();
    }

    @Override
    public void releaseReservation() {
        if (released.compareAndSet(false, true)) spend.release(keyId, reservedE10);
    }
}
