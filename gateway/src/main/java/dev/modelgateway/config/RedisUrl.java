package dev.modelgateway.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code accounts.redis_url} read as what to connect to (docs/operations/scale-out.md, "Redis"):
 * <ul>
 *   <li>{@code redis://[[user]:password@]host:port[/db]}, one node; also a managed service's primary endpoint
 *       (ElastiCache with cluster mode off, Memorystore's Standard tier), whose address follows a failover;</li>
 *   <li>{@code redis-sentinel://[[user]:password@]host:port[,host:port...]/master_name[/db]}: Sentinels, which name the
 *       primary of {@code master_name} and follow it across a failover;</li>
 *   <li>{@code redis-cluster://[[user]:password@]host:port[,host:port...]}: a Redis Cluster from any of its nodes (one is
 *       enough: ElastiCache's configuration endpoint, Memorystore Cluster's discovery endpoint).</li>
 * </ul>
 * {@code rediss}, {@code rediss-sentinel} and {@code rediss-cluster} are the same over TLS. The query (the
 * gateway's {@code key_prefix} taken out) goes to every node as Vert.x's Redis client reads it. Pure: no I/O.
 *
 * @param nodes      each node as a {@code redis[s]://} connection string, with the credentials and the database
 * @param masterName the Sentinel master set's name; null outside Sentinel mode
 */
public record RedisUrl(Mode mode, List<String> nodes, String masterName) {

    /** Vert.x's client types for each. */
    public enum Mode { STANDALONE, SENTINEL, CLUSTER }

    private static final Pattern URL = Pattern.compile("(?<scheme>[A-Za-z-]+)://(?:(?<auth>[^@/?]*)@)?(?<hosts>[^/?]*)"
            + "(?<path>/[^?]*)?(?:\\?(?<query>.*))?");
    private static final Pattern HOST = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[^:,\\[\\]]+)(?::(\\d{1,5}))?");

    public RedisUrl {
        nodes = List.copyOf(nodes);
    }

    /** Fails with a message saying what is wrong (the caller names the setting). */
    public static RedisUrl parse(String url) {
        Matcher m = URL.matcher(url.strip());
        if (!m.matches()) throw new IllegalArgumentException("not a Redis URL (redis://host:port, redis-sentinel://… or redis-cluster://…)");
        String scheme = m.group("scheme").toLowerCase(Locale.ROOT);
        boolean tls = scheme.startsWith("rediss");
        Mode mode = switch (tls ? scheme.substring(6) : scheme.startsWith("redis") ? scheme.substring(5) : "?") {
            case "" -> Mode.STANDALONE;
            case "-sentinel" -> Mode.SENTINEL;
            case "-cluster" -> Mode.CLUSTER;
            default -> throw new IllegalArgumentException("unknown scheme '" + scheme + "': redis, rediss, redis-sentinel, "
                    + "rediss-sentinel, redis-cluster or rediss-cluster");
        };
        // Sentinels listen on 26379 by default, data nodes on 6379
        List<String> hosts = hosts(m.group("hosts"), mode == Mode.SENTINEL ? "26379" : "6379");
        if (mode == Mode.STANDALONE && hosts.size() > 1) {
            throw new IllegalArgumentException("several hosts need redis-sentinel:// or redis-cluster://");
        }
        String path = m.group("path") == null ? "" : m.group("path").substring(1);
        String[] parts = path.isEmpty() ? new String[0] : path.split("/", -1);
        String masterName = null;
        String db = null;
        switch (mode) {
            case STANDALONE -> db = single(parts, "the database");
            case SENTINEL -> {
                if (parts.length == 0 || parts[0].isEmpty()) {
                    throw new IllegalArgumentException("the master set's name is missing: redis-sentinel://host:port/master_name");
                }
                masterName = parts[0];
                if (parts.length > 2) throw new IllegalArgumentException("after the master name, only a database number");
                db = parts.length == 2 ? parts[1] : null;
            }
            case CLUSTER -> {
                if (!path.isEmpty()) throw new IllegalArgumentException("a Redis Cluster has one database: no path after the hosts");
            }
        }
        if (db != null && !db.matches("\\d{1,5}")) throw new IllegalArgumentException("the database must be a number, got '" + db + "'");
        String auth = m.group("auth") == null ? "" : m.group("auth") + "@";
        String tail = (db == null ? "" : "/" + db) + (m.group("query") == null || m.group("query").isEmpty() ? "" : "?" + m.group("query"));
        List<String> nodes = new ArrayList<>();
        for (String host : hosts) nodes.add((tls ? "rediss://" : "redis://") + auth + host + tail);
        return new RedisUrl(mode, nodes, masterName);
    }

    /**
     * The URL's credentials ({@code user:password} or {@code :password}) as written, or null: Vert.x's errors name an
     * endpoint with them, so the log's redaction must know them.
     */
    public static String credentials(String url) {
        Matcher m = url == null ? null : URL.matcher(url.strip());
        return m == null || !m.matches() || m.group("auth") == null || m.group("auth").isEmpty() ? null : m.group("auth");
    }

    private static List<String> hosts(String list, String defaultPort) {
        List<String> hosts = new ArrayList<>();
        for (String h : list.split(",", -1)) {
            Matcher m = HOST.matcher(h.strip());
            // the text is not quoted: a password with an unescaped '/' or '@' would end up here
            if (!m.matches()) throw new IllegalArgumentException("the hosts must be host:port, separated by commas");
            String port = m.group(2);
            if (port != null && Integer.parseInt(port) > 65535) throw new IllegalArgumentException("port " + port + " is out of range");
            hosts.add(m.group(1) + ":" + (port == null ? defaultPort : port));
        }
        return hosts;
    }

    private static String single(String[] parts, String what) {
        if (parts.length > 1) throw new IllegalArgumentException("only " + what + " may follow the host");
        return parts.length == 0 || parts[0].isEmpty() ? null : parts[0];
    }
}
