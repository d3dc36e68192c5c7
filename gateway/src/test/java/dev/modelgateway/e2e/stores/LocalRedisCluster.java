package dev.modelgateway.e2e.stores;

import dev.modelgateway.e2e.TestCert;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.testing.Eventually;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A Redis Cluster of six {@code redis-server} processes on loopback: three primaries, each with one replica
 * ({@code redis-cli --cluster create ... --cluster-replicas 1}), a one-second node timeout so that a replica takes over
 * a dead primary's slots within a few seconds, and a password on every node.
 */
public final class LocalRedisCluster implements AutoCloseable {
    /** How long a node may be silent before the others mark it failed and its replica is promoted. */
    static final int NODE_TIMEOUT_MS = 1000;

    private final RedisNodes nodes;
    private final boolean tls;
    private final List<Integer> ports = new ArrayList<>();

    public LocalRedisCluster() {
        this(null);
    }

    /** With {@code tls}, every process speaks TLS only with that certificate (and the URL is {@code rediss…}). */
    public LocalRedisCluster(TestCert tls) {
        this.nodes = new RedisNodes("redis-cluster", tls);
        this.tls = tls != null;
        try {
            for (int i = 0; i < 6; i++) {
                // the bus port is chosen too: port + 10000 may be taken, or past 65535
                // a replica fails over however long its link was down (a loaded machine may have delayed its sync)
                ports.add(nodes.startServer("--cluster-enabled", "yes", "--cluster-node-timeout", Integer.toString(NODE_TIMEOUT_MS),
                        "--cluster-replica-validity-factor", "0",
                        "--cluster-port", Integer.toString(FreePort.pick()), "--cluster-config-file", "nodes.conf"));
            }
            List<String> create = new ArrayList<>(List.of("redis-cli"));
            create.addAll(nodes.cliOptions());
            create.addAll(List.of("--cluster", "create"));
            ports.forEach(p -> create.add("127.0.0.1:" + p));
            create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
            String created = RedisNodes.run(create);
            Eventually.until("the cluster is up: " + created, Duration.ofSeconds(30),
                    () -> ports.stream().allMatch(p -> nodes.cli(p, "CLUSTER", "INFO").contains("cluster_state:ok")));
        } catch (RuntimeException | Error e) {
            // Eventually's AssertionError too: no redis-server may outlive a set-up that failed
            nodes.close();
            throw e;
        }
    }

    /** The gateway's {@code accounts.redis_url}: two of the nodes as seeds, the password, this test's key prefix. */
    public String url(String keyPrefix) {
        return (tls ? "rediss" : "redis") + "-cluster://:" + RedisNodes.PASSWORD + "@" + ports.subList(0, 2).stream().map(p -> "127.0.0.1:" + p)
                .collect(Collectors.joining(",")) + "?key_prefix=" + keyPrefix;
    }

    /** The port of the primary that serves {@code key}'s slot now, as the live nodes see it. */
    public int primaryOf(String key) {
        int live = ports.stream().filter(p -> nodes.cli(p, "PING").equals("PONG")).findFirst().orElseThrow();
        long slot = Long.parseLong(nodes.cli(live, "CLUSTER", "KEYSLOT", key));
        // CLUSTER NODES: <id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot ranges...>
        for (String line : nodes.cli(live, "CLUSTER", "NODES").split("\n")) {
            String[] f = line.strip().split(" ");
            if (!f[2].contains("master") || f[2].contains("fail")) continue;
            for (int i = 8; i < f.length; i++) {
                String[] range = f[i].split("-");
                long from = Long.parseLong(range[0]);
                long to = range.length > 1 ? Long.parseLong(range[1]) : from;
                if (slot >= from && slot <= to) return Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1, f[1].indexOf('@')));
            }
        }
        throw new IllegalStateException("no primary serves slot " + slot);
    }

    /** SIGKILL to one node. */
    public void kill(int port) {
        nodes.kill(port);
    }

    /** Until the primary on {@code port} has a replica online and caught up (a failover then loses nothing acknowledged). */
    public void awaitReplicated(int port) {
        nodes.awaitReplicated(port);
    }

    /** The keys under {@code prefix} on every live primary. */
    public List<String> keys(String prefix) {
        List<String> keys = new ArrayList<>();
        for (int p : ports) {
            if (!nodes.cli(p, "PING").equals("PONG") || !nodes.cli(p, "ROLE").startsWith("master")) continue;
            for (String k : nodes.cli(p, "--scan", "--pattern", prefix + "*").split("\n")) if (!k.isBlank()) keys.add(k);
        }
        return keys;
    }

    @Override
    public void close() {
        nodes.close();
    }
}
