package dev.modelgateway.accounts.ledger;

/** Sums over a set of ledger rows. Failed requests are those answered with status 400 or above. */
public record UsageTotals(long requests, long failedRequests, long inputTokens, long cacheReadTokens, long cacheWrite5mTokens,
                   long cacheWrite1hTokens, long outputTokens, long reasoningTokens, long costE10) {

    public static final UsageTotals ZERO = new UsageTotals(0, 0, 0, 0, 0, 0, 0, 0, 0);

    public UsageTotals plus(UsageTotals o) {
        return new UsageTotals(requests + o.requests, failedRequests + o.failedRequests, inputTokens + o.inputTokens,
                cacheReadTokens + o.cacheReadTokens, cacheWrite5mTokens + o.cacheWrite5mTokens,
                cacheWrite1hTokens + o.cacheWrite1hTokens, outputTokens + o.outputTokens,
                reasoningTokens + o.reasoningTokens, costE10 + o.costE10);
    }
}
