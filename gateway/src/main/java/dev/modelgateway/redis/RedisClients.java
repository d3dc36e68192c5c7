package dev.modelgateway.redis;

import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.config.RedisUrl;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.RedisReplicas;
import io.vertx.redis.client.RedisRole;

/**
 * Vert.x Redis clients for {@code accounts.redis_url} and its settings. In every mode commands go to primaries only
 * ({@link RedisReplicas#NEVER}): a replica may not have the last writes yet, and a limit read there would be stale.
 * Sentinel mode follows the master set's {@code +switch-master} (Vert.x's automatic failover); Cluster mode reads the
 * slots from any seed node and follows {@code MOVED} and a failover through them.
 */
public final class RedisClients {

    private RedisClients() {
    }

    /**
     * A client with at most {@code poolSize} connections per node and {@code poolWaiting} callers waiting for one.
     *
     * @throws IllegalArgumentException the URL is not one the gateway reads ({@link RedisUrl#parse})
     */
    public static Redis create(Vertx vertx, String url, RedisSettings settings, int connectTimeoutMs, int poolSize, int poolWaiting) {
        return Redis.createClient(vertx, options(RedisUrl.parse(url), settings, connectTimeoutMs)
                .setMaxPoolSize(poolSize)
                // Vert.x refuses a Sentinel or Cluster client that may wait for fewer connections than it may open
                .setMaxPoolWaiting(Math.max(poolWaiting, poolSize)));
    }

    /**
     * A client for one look (start-up, readiness): in Sentinel mode without the subscription to {@code +switch-master},
     * which a client closed at once would only break off (and log).
     */
    public static Redis probe(Vertx vertx, String url, RedisSettings settings, int connectTimeoutMs) {
        return Redis.createClient(vertx, options(RedisUrl.parse(url), settings, connectTimeoutMs).setAutoFailover(false)
                .setMaxPoolSize(1).setMaxPoolWaiting(1));
    }

    static RedisOptions options(RedisUrl url, RedisSettings settings, int connectTimeoutMs) {
        // rediss:// nodes are upgraded to TLS with these options: the certificate must chain to the JDK's roots or the
        // CA file, and name the host or address dialled (Vert.x checks no name unless told to)
        NetClientOptions net = new NetClientOptions().setConnectTimeout(connectTimeoutMs).setTcpNoDelay(true)
                .setHostnameVerificationAlgorithm("HTTPS");
        if (settings.caFile() != null) net.setTrustOptions(new PemTrustOptions().addCertPath(settings.caFile()));
        RedisOptions options = new RedisOptions().setNetClientOptions(net).setUseReplicas(RedisReplicas.NEVER);
        url.nodes().forEach(options::addConnectionString);
        return switch (url.mode()) {
            case STANDALONE -> options.setType(RedisClientType.STANDALONE);
            case SENTINEL -> options.setType(RedisClientType.SENTINEL).setMasterName(url.masterName()).setRole(RedisRole.MASTER)
                    .setAutoFailover(true);
            case CLUSTER -> options.setType(RedisClientType.CLUSTER);
        };
    }
}
