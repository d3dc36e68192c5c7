package dev.modelgateway.accounts;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scope's bucket levels after an admission attempt (or a peek). Levels may be negative: a request
 * whose real usage exceeded its estimate leaves a debt that refills first.
 *
 * @param allowed      whether the request was admitted (by every scope it drew on)
 * @param retryAfterMs how long until the request would fit in this scope (0 when it fits now)
 */
record RateDecision(boolean allowed, RateLimits limits, double requestLevel, double tokenLevel, long retryAfterMs) {

    long remainingRequests() {
        return (long) Math.floor(Math.max(0, requestLevel));
    }

    long remainingTokens() {
        return (long) Math.floor(Math.max(0, tokenLevel));
    }

    long requestsResetMs() {
        return RateLimits.msUntil(requestLevel, limits.rpm(), limits.rpm());
    }

    long tokensResetMs() {
        return RateLimits.msUntil(tokenLevel, limits.tpm(), limits.tpm());
    }

    /**
     * OpenAI's {@code x-ratelimit-*} headers for a request that drew on {@code scopes}: per dimension, the
     * scope with the least room left (the one that refuses first). Reset is the time until that bucket is full.
     */
    static Map<String, String> headers(List<RateDecision> scopes) {
        Map<String, String> h = new LinkedHashMap<>();
        scopes.stream().filter(d -> d.limits.rpm() > 0)
                .min(Comparator.comparingDouble(RateDecision::requestLevel).thenComparingLong(d -> d.limits.rpm()))
                .ifPresent(d -> {
                    h.put("x-ratelimit-limit-requests", Long.toString(d.limits.rpm()));
                    h.put("x-ratelimit-remaining-requests", Long.toString(d.remainingRequests()));
                    h.put("x-ratelimit-reset-requests", GoDuration.format(d.requestsResetMs()));
                });
        scopes.stream().filter(d -> d.limits.tpm() > 0)
                .min(Comparator.comparingDouble(RateDecision::tokenLevel).thenComparingLong(d -> d.limits.tpm()))
                .ifPresent(d -> {
                    h.put("x-ratelimit-limit-tokens", Long.toString(d.limits.tpm()));
                    h.put("x-ratelimit-remaining-tokens", Long.toString(d.remainingTokens()));
                    h.put("x-ratelimit-reset-tokens", GoDuration.format(d.tokensResetMs()));
                });
        return h;
    }

    /** The headers of a refusal: the rate-limit view plus when to come back (the longest wait of any scope). */
    static Map<String, String> refusalHeaders(List<RateDecision> scopes) {
        Map<String, String> h = headers(scopes);
        long retryAfterMs = scopes.stream().mapToLong(RateDecision::retryAfterMs).max().orElse(0);
        h.put("retry-after", Long.toString(Math.max(1, (retryAfterMs + 999) / 1000)));
        h.put("retry-after-ms", Long.toString(retryAfterMs));
        return h;
    }
}
