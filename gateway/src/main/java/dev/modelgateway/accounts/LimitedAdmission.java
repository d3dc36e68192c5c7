package dev.modelgateway.accounts;

import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/** An admission that took tokens from a bucket on an estimate and gives back or takes the difference once. */
final class LimitedAdmission implements Admission {
    private static final System.Logger LOG = System.getLogger(LimitedAdmission.class.getName());

    private final Map<String, String> headers;
    private final RateLimiter limiter;
    private final String keyId;
    private final RateLimits limits;
    private final long estimatedTokens;
    private final AtomicBoolean settled = new AtomicBoolean();

    LimitedAdmission(Map<String, String> headers, RateLimiter limiter, String keyId, RateLimits limits, long estimatedTokens) {
        this.headers = Map.copyOf(headers);
        this.limiter = limiter;
        this.keyId = keyId;
        this.limits = limits;
        this.estimatedTokens = estimatedTokens;
    }

    @Override
    public Map<String, String> headers() {
        return headers;
    }

    @Override
    public void settle(long actualTokens) {
        if (!settled.compareAndSet(false, true)) return;
        long delta = Math.max(actualTokens, 0) - Math.max(estimatedTokens, 0);
        if (limits.tpm() <= 0 || delta == 0) return;
        limiter.adjust(keyId, limits, delta)
                .onFailure(e -> LOG.log(Level.WARNING, "token settlement for " + keyId + " lost: " + e));
    }
}
