package dev.modelgateway.console;

import java.util.ArrayList;
import java.util.List;

/** The measures of {@code console_rollup} (V1__usage_rollups.sql, V2__team_cut.sql) and the SQL that sums them. */
final class RollupColumns {
    /** Upper bounds (ms) of the latency and TTFT histogram buckets; the last bucket is everything above. */
    static final long[] BOUNDS_MS = {100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000};
    static final int BUCKETS = BOUNDS_MS.length + 1;

    /** The measures, in table order after the dimensions. */
    static final List<String> MEASURES = measures();
    static final String ALL = "cut, grain, bucket_ms, key_id, model, vendor, team_id, " + String.join(", ", MEASURES);
    /** {@code SUM(m) AS m} for every measure. */
    static final String SUMS = String.join(", ", MEASURES.stream().map(m -> "SUM(" + m + ") AS " + m).toList());

    private RollupColumns() {
    }

    private static List<String> measures() {
        List<String> m = new ArrayList<>(List.of("requests", "errors", "input_tokens", "cache_read_tokens", "cache_write_tokens",
                "output_tokens", "reasoning_tokens", "cost_usd_e10", "latency_sum_ms", "ttft_sum_ms", "ttft_count"));
        for (int i = 0; i < BUCKETS; i++) m.add("lat_" + i);
        for (int i = 0; i < BUCKETS; i++) m.add("ttft_" + i);
        return List.copyOf(m);
    }

    /** One {@code SUM(CASE ...)} per histogram bucket of a ledger column; a null (no TTFT) counts nowhere. */
    static String histogram(String column) {
        List<String> sums = new ArrayList<>();
        for (int i = 0; i < BUCKETS; i++) {
            String above = i == 0 ? "" : column + " > " + BOUNDS_MS[i - 1];
            String below = i == BOUNDS_MS.length ? "" : column + " <= " + BOUNDS_MS[i];
            String cond = above.isEmpty() ? below : below.isEmpty() ? above : above + " AND " + below;
            sums.add("SUM(CASE WHEN " + cond + " THEN 1 ELSE 0 END)");
        }
        return String.join(", ", sums);
    }

    /** The value below which a fraction {@code p} of a histogram's counts lie, interpolated within its bucket; -1 if empty. */
    static long percentile(long[] counts, double p) {
        long total = 0;
        for (long n : counts) total += n;
        if (total == 0) return -1;
        double rank = p * total;
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0 && seen + counts[i] >= rank) {
                long low = i == 0 ? 0 : BOUNDS_MS[i - 1];
                if (i == BOUNDS_MS.length) return low; // open-ended: report its lower bound
                double within = (rank - seen) / counts[i];
                return Math.round(low + within * (BOUNDS_MS[i] - low));
            }
            seen += counts[i];
        }
        return BOUNDS_MS[BOUNDS_MS.length - 1];
    }
}
