package dev.modelgateway.accounts.limits;

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
public record RateDecision(boolean allowed, RateLimits limits, double requestLevel, double tokenLevel, long retryAfterMs) {

    public long remainingRequests() {
        return (long) Math.floor(Math.max(0, requestLevel));
    }

    long remainingTokens() {
        return (long) Math.floor(Math.max(0, tokenLevel));
    }

    public long requestsResetMs() {
        return RateLimits.msUntil(requestLevel, limits.rpm(), limits.rpm());
    }

    public long tokensResetMs() {
        return RateLimits.msUntil(tokenLevel, limits.tpm(), limits.tpm());
    }

    /**
     * OpenAI's {@code x-ratelimit-*} headers for a request that drew on {@code scopes}: per dimension, the
     * scope with the least room left (the one that refuses first). Reset is the time until that bucket is full.
     */
    public static Map<String, String> headers(List<RateDecision> scopes) {
        RateDecision requests = null;
        RateDecision tokens = null;
        for (RateDecision d : scopes) {
            if (d.limits.rpm() > 0 && (requests == null || d.requestLevel < requests.requestLevel
                    || d.requestLevel == requests.requestLevel && d.limits.rpm() < requests.limits.rpm())) requests = d;
            if (d.limits.tpm() > 0 && (tokens == null || d.tokenLevel < tokens.tokenLevel
                    || d.tokenLevel == tokens.tokenLevel && d.limits.tpm() < tokens.limits.tpm())) tokens = d;
        }
        Map<String, String> h = new LinkedHashMap<>();
        if (requests != null) {
            h.put("x-ratelimit-limit-requests", Long.toString(requests.limits.rpm()));
            h.put("x-ratelimit-remaining-requests", Long.toString(requests.remainingRequests()));
            h.put("x-ratelimit-reset-requests", GoDuration.format(requests.requestsResetMs()));
        }
        if (tokens != null) {
            h.put("x-ratelimit-limit-tokens", Long.toString(tokens.limits.tpm()));
            h.put("x-ratelimit-remaining-tokens", Long.toString(tokens.remainingTokens()));
            h.put("x-ratelimit-reset-tokens", GoDuration.format(tokens.tokensResetMs()));
        }
        return h;
    }

    /** The headers of a refusal: the rate-limit view plus when to come back (the longest wait of any scope). */
    public static Map<String, String> refusalHeaders(List<RateDecision> scopes) {
        Map<String, String> h = headers(scopes);
        long retryAfterMs = scopes.stream().mapToLong(RateDecision::retryAfterMs).max().orElse(0);
        h.put("retry-after", Long.toString(Math.max(1, (retryAfterMs + 999) / 1000)));
        h.put("retry-after-ms", Long.toString(retryAfterMs));
        return h;
    }
}
