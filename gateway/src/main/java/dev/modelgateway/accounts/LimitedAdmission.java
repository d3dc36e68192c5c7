package dev.modelgateway.accounts;

import dev.modelgateway.accounts.limits.RateLimiter;
import dev.modelgateway.accounts.limits.RateScope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/** An admission that took tokens from its scopes' buckets on an estimate and gives back or takes the difference once. */
final class LimitedAdmission implements Admission {
    private static final Logger LOG = LoggerFactory.getLogger(LimitedAdmission.class);

    private final Map<String, String> headers;
    private final RateLimiter limiter;
    private final List<RateScope> scopes;
    private final long estimatedTokens;
    private final AtomicBoolean settled = new AtomicBoolean();

    LimitedAdmission(Map<String, String> headers, RateLimiter limiter, List<RateScope> scopes, long estimatedTokens) {
        this.headers = Collections.unmodifiableMap(headers);
        this.limiter = limiter;
        this.scopes = scopes;
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
        if (delta == 0) return;
        // Both limiters leave scopes without a token limit alone.
        limiter.adjust(scopes, delta)
                .onFailure(e -> LOG.warn("token settlement for " + scopes.getFirst().keyId() + " lost: " + e));
    }
}
