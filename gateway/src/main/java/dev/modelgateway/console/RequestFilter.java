package dev.modelgateway.console;

/**
 * Which ledger rows the requests screen lists: newest first, after the keyset cursor ({@code beforeAtMs},
 * {@code beforeId}) of the previous page, within {@code sinceMs}. Null fields do not filter.
 *
 * @param errors null: every status; true: status >= 400; false: below 400
 * @param userId the user the calls were billed to ({@code usage_ledger.user_id})
 */
record RequestFilter(String keyId, String model, Boolean errors, long sinceMs, Long beforeAtMs, String beforeId, int limit,
                     Visible visible, String userId) {
    RequestFilter(String keyId, String model, Boolean errors, long sinceMs, Long beforeAtMs, String beforeId, int limit) {
        this(keyId, model, errors, sinceMs, beforeAtMs, beforeId, limit, Visible.ALL, null);
    }

    static final int MAX_LIMIT = 200;
}
