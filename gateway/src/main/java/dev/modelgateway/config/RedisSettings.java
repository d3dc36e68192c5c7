package dev.modelgateway.config;

/**
 * The Redis settings besides its URL (docs/operations/scale-out.md, "Redis"), as the operator set them; what is unset
 * follows the URL's mode. Pure.
 *
 * @param replicaAcks         {@code accounts.redis_replica_acks}; null: by mode
 * @param failoverWaitSeconds {@code accounts.redis_failover_wait_seconds}; null: by mode
 * @param caFile              {@code accounts.redis_ca_file}; null: the JDK's trusted roots
 */
public record RedisSettings(Integer replicaAcks, Double failoverWaitSeconds, String caFile) {

    /** Everything by mode, the JDK's roots. */
    public static final RedisSettings DEFAULT = new RedisSettings(null, null, null);

    public static RedisSettings of(ConfigValues v) {
        Object acks = v.value(Settings.ACCOUNTS_REDIS_REPLICA_ACKS);
        return new RedisSettings(acks == null ? null : Math.toIntExact((Long) acks),
                (Double) v.value(Settings.ACCOUNTS_REDIS_FAILOVER_WAIT_SECONDS), v.text(Settings.ACCOUNTS_REDIS_CA_FILE));
    }

    /**
     * With Sentinel or Cluster there are replicas to promote, and a write only the dead primary had is lost: one
     * replica must have it. A single node has none to wait for (a managed primary endpoint with replicas: set it).
     */
    public int replicaAcks(RedisUrl.Mode mode) {
        return replicaAcks != null ? replicaAcks : mode == RedisUrl.Mode.STANDALONE ? 0 : 1;
    }

    /**
     * Long enough for a tuned Sentinel or Cluster failover (down-after or node timeout of a second or two, then the
     * election); one node keeps the one-second bound it always had.
     */
    public long failoverWaitMs(RedisUrl.Mode mode) {
        if (failoverWaitSeconds != null) return Math.round(failoverWaitSeconds * 1000);
        return mode == RedisUrl.Mode.STANDALONE ? 1000 : 5000;
    }
}
