package dev.modelgateway.console;

/** One bucket x group of a usage chart, summed from rollup rows; histograms are counts per {@link RollupColumns#BOUNDS_MS}. */
record UsageRow(long bucketMs, String group, long requests, long errors, long inputTokens, long cacheReadTokens,
                long cacheWriteTokens, long outputTokens, long reasoningTokens, long costE10, long latencySumMs,
                long ttftSumMs, long ttftCount, long[] latency, long[] ttft) {
}
