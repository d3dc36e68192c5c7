package dev.modelgateway.e2e.stores;

import dev.modelgateway.e2e.TestCert;
import dev.modelgateway.testing.Eventually;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A Sentinel set on loopback: one primary and two replicas ({@code redis-server --replicaof}), watched by three
 * Sentinels ({@code redis-server --sentinel}) with a quorum of two and a one-second down-after, a password on every
 * process (the Sentinels' own too: Vert.x's client uses the URL's for both).
 */
public final class LocalRedisSentinel implements AutoCloseable {
    public static final String MASTER = "gateway";
    static final int DOWN_AFTER_MS = 1000;

    private final RedisNodes nodes;
    private final boolean tls;
    private final List<Integer> data = new ArrayList<>();
    private final List<Integer> sentinels = new ArrayList<>();

    public LocalRedisSentinel() {
        this(null);
    }

    /** With {@code tls}, every process speaks TLS only with that certificate (and the URL is {@code rediss…}). */
    public LocalRedisSentinel(TestCert tls) {
        this.nodes = new RedisNodes("redis-sentinel", tls);
        this.tls = tls != null;
        try {
            int primary = nodes.startServer();
            data.add(primary);
            for (int i = 0; i < 2; i++) data.add(nodes.startServer("--replicaof", "127.0.0.1", Integer.toString(primary)));
            String config = "sentinel monitor " + MASTER + " 127.0.0.1 " + primary + " 2\n"
                    + "sentinel auth-pass " + MASTER + " " + RedisNodes.PASSWORD + "\n"
                    + "sentinel sentinel-pass " + RedisNodes.PASSWORD + "\n"
                    + "sentinel down-after-milliseconds " + MASTER + " " + DOWN_AFTER_MS + "\n"
                    + "sentinel failover-timeout " + MASTER + " 10000\n";
            for (int i = 0; i < 3; i++) sentinels.add(nodes.startSentinel(config));
            // a failover needs the Sentinels to know each other and the replicas (learnt through the primary)
            Eventually.value("the Sentinels know the replicas and each other", Duration.ofSeconds(30),
                    () -> sentinels.stream().map(s -> count(nodes.cli(s, "SENTINEL", "REPLICAS", MASTER), "name") + " replicas, "
                            + count(nodes.cli(s, "SENTINEL", "SENTINELS", MASTER), "name") + " other sentinels").toList(),
                    seen -> seen.stream().allMatch(s -> s.equals("2 replicas, 2 other sentinels")));
        } catch (RuntimeException | Error e) {
            // Eventually's AssertionError too: no redis-server may outlive a set-up that failed
            nodes.close();
            throw e;
        }
    }

    /** Entries in a SENTINEL REPLICAS or SENTINELS reply, as redis-cli prints it: one field name or value a line. */
    private static long count(String reply, String word) {
        return reply.lines().filter(l -> l.strip().equals(word)).count();
    }

    /** The gateway's {@code accounts.redis_url}: the three Sentinels, the master set, the password, the key prefix. */
    public String url(String keyPrefix) {
        return (tls ? "rediss" : "redis") + "-sentinel://:" + RedisNodes.PASSWORD + "@" + sentinels.stream().map(p -> "127.0.0.1:" + p)
                .collect(Collectors.joining(",")) + "/" + MASTER + "?key_prefix=" + keyPrefix;
    }

    /** The primary's port as the Sentinels name it now. */
    public int primary() {
        for (int s : sentinels) {
            String[] addr = nodes.cli(s, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER).split("\n");
            if (addr.length == 2) return Integer.parseInt(addr[1].strip());
        }
        throw new IllegalStateException("no Sentinel answers");
    }

    public void kill(int port) {
        nodes.kill(port);
    }

    /** Until the primary on {@code port} has its replicas online and caught up. */
    public void awaitReplicated(int port) {
        nodes.awaitReplicated(port);
    }

    @Override
    public void close() {
        nodes.close();
    }
}
