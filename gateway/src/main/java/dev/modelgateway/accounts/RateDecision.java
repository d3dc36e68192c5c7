package dev.modelgateway.accounts;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The buckets' levels after an admission attempt (or a peek). Levels may be negative: a request
 * whose real usage exceeded its estimate leaves a debt that refills first.
 *
 * @param retryAfterMs 0 when admitted, else how long until the request would fit
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

    /** OpenAI's {@code x-ratelimit-*} headers; reset is the time until the bucket is full again. */
    Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        if (limits.rpm() > 0) {
            h.put("x-ratelimit-limit-requests", Long.toString(limits.rpm()));
            h.put("x-ratelimit-remaining-requests", Long.toString(remainingRequests()));
            h.put("x-ratelimit-reset-requests", GoDuration.format(requestsResetMs()));
        }
        if (limits.tpm() > 0) {
            h.put("x-ratelimit-limit-tokens", Long.toString(limits.tpm()));
            h.put("x-ratelimit-remaining-tokens", Long.toString(remainingTokens()));
            h.put("x-ratelimit-reset-tokens", GoDuration.format(tokensResetMs()));
        }
        return h;
    }

    /** The headers of a refusal: the rate-limit view plus when to come back. */
    Map<String, String> refusalHeaders() {
        Map<String, String> h = headers();
        h.put("retry-after", Long.toString(Math.max(1, (retryAfterMs + 999) / 1000)));
        h.put("retry-after-ms", Long.toString(retryAfterMs));
        return h;
    }
}
