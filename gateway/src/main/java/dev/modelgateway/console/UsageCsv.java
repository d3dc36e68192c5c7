package dev.modelgateway.console;

import java.time.Instant;
import java.util.List;

/** A usage chart's rows as CSV (RFC 4180), with the percentiles estimated from the rollups' histograms. */
final class UsageCsv {
    private static final String HEADER = "bucket,group,requests,errors,input_tokens,cache_read_tokens,cache_write_tokens,"
            + "output_tokens,reasoning_tokens,cost_usd,latency_avg_ms,latency_p50_ms,latency_p95_ms,ttft_avg_ms,ttft_p50_ms,ttft_p95_ms\r\n";

    private UsageCsv() {
    }

    static String of(List<UsageRow> rows) {
        StringBuilder csv = new StringBuilder(HEADER);
        for (UsageRow r : rows) {
            csv.append(Instant.ofEpochMilli(r.bucketMs())).append(',').append(quote(r.group())).append(',')
                    .append(r.requests()).append(',').append(r.errors()).append(',').append(r.inputTokens()).append(',')
                    .append(r.cacheReadTokens()).append(',').append(r.cacheWriteTokens()).append(',').append(r.outputTokens()).append(',')
                    .append(r.reasoningTokens()).append(',').append(ConsoleApi.usd(r.costE10())).append(',')
                    .append(r.requests() == 0 ? "" : r.latencySumMs() / r.requests()).append(',')
                    .append(blank(RollupColumns.percentile(r.latency(), 0.5))).append(',')
                    .append(blank(RollupColumns.percentile(r.latency(), 0.95))).append(',')
                    .append(r.ttftCount() == 0 ? "" : r.ttftSumMs() / r.ttftCount()).append(',')
                    .append(blank(RollupColumns.percentile(r.ttft(), 0.5))).append(',')
                    .append(blank(RollupColumns.percentile(r.ttft(), 0.95))).append("\r\n");
        }
        return csv.toString();
    }

    private static String blank(long v) {
        return v < 0 ? "" : Long.toString(v);
    }

    /**
     * Quoted when needed; a leading =, +, - or @, and a leading TAB or CR (spreadsheets skip them before looking for
     * a formula), is prefixed with ' so a spreadsheet never runs it as a formula (OWASP, CSV injection).
     */
    private static String quote(String s) {
        if (s == null) return "";
        String v = !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
        return v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r") ? "\"" + v.replace("\"", "\"\"") + "\"" : v;
    }
}
