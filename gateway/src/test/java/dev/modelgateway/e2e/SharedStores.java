package dev.modelgateway.e2e;

import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * The stores several gateway instances share: a fresh schema in the local PostgreSQL and a key prefix
 * of its own in the local Redis ({@code .ci/run} starts both). Both are removed on close.
 */
public final class SharedStores implements AutoCloseable {
    static final String PG_BASE = "jdbc:postgresql://127.0.0.1:5432/gateway_test?user=gateway_test&password=gateway_test";
    static final String REDIS = "redis://127.0.0.1:6379";

    private final String schema = random("e2e_");
    private final String prefix = random("mge2e-") + ":";

    public SharedStores() throws SQLException {
        exec("CREATE SCHEMA " + schema);
    }

    public String databaseUrl() {
        return PG_BASE + "&currentSchema=" + schema;
    }

    /** The Redis URL with this test's key prefix ({@code key_prefix} is read by the gateway, not sent to Redis). */
    public String redisUrl() {
        return REDIS + "?key_prefix=" + prefix;
    }

    /** A gateway on these stores; several of them share one rate limit and one ledger. */
    public GatewayHarness.Builder gateway() {
        return GatewayHarness.builder().database(databaseUrl()).redis(redisUrl());
    }

    public int redisKeyCount() {
        return withRedis(redis -> keys(redis).size());
    }

    /**
     * The keys under this test's prefix but the scripts' records of their runs ({@code …:run:…}, kept a few seconds so
     * that a run retried after a failover takes nothing twice): the shared counters, leases and owners.
     */
    public int redisStateKeyCount() {
        return withRedis(redis -> {
            int n = 0;
            for (Response k : keys(redis)) if (!k.toString().contains(":run:")) n++;
            return n;
        });
    }

    @Override
    public void close() throws SQLException {
        exec("DROP SCHEMA " + schema + " CASCADE");
        withRedis(redis -> {
            for (Response k : keys(redis)) redis.send(Request.cmd(Command.DEL).arg(k.toString())).await();
            return null;
        });
    }

    private Response keys(Redis redis) {
        return redis.send(Request.cmd(Command.KEYS).arg(prefix + "*")).await();
    }

    private static <T> T withRedis(Function<Redis, T> use) {
        Vertx vertx = Vertx.vertx();
        Redis redis = Redis.createClient(vertx, REDIS);
        try {
            return use.apply(redis);
        } finally {
            redis.close().await();
            vertx.close().await();
        }
    }

    private static void exec(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(PG_BASE); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String random(String prefix) {
        return prefix + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }
}
