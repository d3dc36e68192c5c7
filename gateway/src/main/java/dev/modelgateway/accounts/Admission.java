package dev.modelgateway.accounts;

import java.util.Map;

/** A request let through {@link Accounts#admit}: its rate-limit headers and the hook to correct its token estimate. */
public interface Admission {

    /** OpenAI's {@code x-ratelimit-*} headers for the response; empty for a key without limits. */
    Map<String, String> headers();

    /**
     * Replaces the token estimate taken at admission with the real usage and releases the call's concurrency slot
     * and budget reservation; later calls are ignored. Call it after the call's usage record was queued, so its
     * cost is never counted neither as reserved nor as spent.
     */
    void settle(long actualTokens);

    /**
     * Releases the concurrency slot and the budget reservation alone, for a call whose cost is recorded later
     * (transcription tasks, which run on after the request that submitted them).
     */
    default void releaseHold() {
    }

    Admission UNLIMITED = new Admission() {
        @Override
        public Map<String, String> headers() {
            return Map.of();
        }

        @Override
        public void settle(long actualTokens) {
        }
    };
}
