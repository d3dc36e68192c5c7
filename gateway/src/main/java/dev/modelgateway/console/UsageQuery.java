package dev.modelgateway.console;

/**
 * One usage chart's question: rollup rows of a grain between two instants, grouped by a dimension, for every
 * key (admin) or one key (its own view).
 */
record UsageQuery(Grain grain, long fromMs, long toMs, Dimension dimension, String keyId) {

    enum Grain {
        HOUR("h", RollupJob.HOUR_MS, 31 * 24), DAY("d", RollupJob.DAY_MS, 400);

        final String code;
        final long ms;
        /** The most buckets one chart may ask for. */
        final int maxBuckets;

        Grain(String code, long ms, int maxBuckets) {
            this.code = code;
            this.ms = ms;
            this.maxBuckets = maxBuckets;
        }
    }

    enum Dimension {
        NONE(null), KEY("key_id"), MODEL("model"), VENDOR("vendor");

        final String column;

        Dimension(String column) {
            this.column = column;
        }
    }
}
