package dev.modelgateway.console;

/** One request as the ledger recorded it (usage_ledger's columns). */
record LedgerRow(String id, String traceId, String keyId, String publicModel, String answeredModel, String vendor,
                 long inputTokens, long cacheReadTokens, long cacheWrite5mTokens, long cacheWrite1hTokens,
                 long outputTokens, long reasoningTokens, int attempts, int status, long latencyMs, Long ttftMs,
                 long atMs, long costE10, String userId) {
}
