package dev.modelgateway.console;

/**
 * One usage chart's question: rollup rows of a grain between two instants, grouped by a dimension, for every
 * key (admin) or one key (its own view).
 */
record UsageQuery(Grain grain, long fromMs, long toMs, Dimension dimension, String keyId, Visible visible) {
    UsageQuery(Grain grain, long fromMs, long toMs, Dimension dimension, String keyId) {
        this(grain, fromMs, toMs, dimension, keyId, Visible.ALL);
    }

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
        NONE(null, "t"), KEY("key_id", "k"), TEAM("team_id", "g"), MODEL("model", "m"), VENDOR("vendor", "v"),
        /** From {@code console_user_rollup} ({@link UserRollups}), which has no cuts: only the rows naming a user. */
        USER("user_id", null);

        final String column;
        /** The rollup cut that holds one row per bucket and group of this dimension; null for the per-user table. */
        final String cut;

        Dimension(String column, String cut) {
            this.column = column;
            this.cut = cut;
        }
    }

    /** A key's or a scope's rows are in the full cut (key x model x vendor x team); everyone's in the dimension's own cut. */
    String cut() {
        if (dimension == Dimension.USER) return null;
        return keyId != null || !visible.all() ? RollupJob.FULL : dimension.cut;
    }
}
