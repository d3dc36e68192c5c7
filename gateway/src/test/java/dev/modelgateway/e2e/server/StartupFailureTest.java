package dev.modelgateway.e2e.server;

import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.server.Gateway;
import dev.modelgateway.server.StartupFailure;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.testing.E2e;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Hardening item 19: an unreachable Redis or database fails start-up, clearly (naming the setting) and in
 * bounded time, and `serve` exits non-zero.
 */
@E2e
class StartupFailureTest {

    @Test
    void unreachableRedisFailsGatewayStartWithAClearCause() throws Exception {
        int closed = FreePort.pick();
        Vertx vertx = Vertx.vertx();
        try {
            GatewayConfig config = new ConfigLoader(Map.of("GATEWAY_SERVER_HOST", "127.0.0.1", "GATEWAY_SERVER_PORT", "0",
                    "GATEWAY_ACCOUNTS_DATABASE_URL", GatewayHarness.tempDatabaseUrl(),
                    "GATEWAY_ACCOUNTS_REDIS_URL", "redis://:secret@127.0.0.1:" + closed)::get).load(null);
            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> Gateway.start(vertx, config, 1).toCompletionStage()
                    .toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertThat((System.nanoTime() - start) / 1_000_000_000).isLessThan(15);
            assertThat(failure).hasCauseInstanceOf(StartupFailure.class);
            assertThat(failure.getCause().getMessage())
                    .contains("Redis at redis://***@127.0.0.1:" + closed, "GATEWAY_ACCOUNTS_REDIS_URL", "unreachable")
                    .doesNotContain("secret");
        } finally {
            vertx.close().await();
        }
    }

    @Test
    void redisIsNamedWhenTheDatabaseFailsToo() throws Exception {
        // the database opens while Redis is probed; an unreachable Redis stays the reason given
        int closed = FreePort.pick();
        Vertx vertx = Vertx.vertx();
        try {
            GatewayConfig config = new ConfigLoader(Map.of("GATEWAY_SERVER_HOST", "127.0.0.1", "GATEWAY_SERVER_PORT", "0",
                    "GATEWAY_ACCOUNTS_DATABASE_URL", "jdbc:postgresql://127.0.0.1:" + closed + "/gateway",
                    "GATEWAY_ACCOUNTS_REDIS_URL", "redis://127.0.0.1:" + closed)::get).load(null);
            Throwable failure = catchThrowable(() -> Gateway.start(vertx, config, 1).toCompletionStage()
                    .toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertThat(failure).hasCauseInstanceOf(StartupFailure.class);
            assertThat(failure.getCause().getMessage()).startsWith("Redis at redis://127.0.0.1:" + closed);
        } finally {
            vertx.close().await();
        }
    }

    @Test
    void serveExitsNonZeroWhenRedisIsUnreachable() throws Exception {
        int closed = FreePort.pick();
        Path db = java.nio.file.Files.createTempFile("gw-startup", ".db");
        String output = serveExpectingExit1(Map.of("GATEWAY_ACCOUNTS_DATABASE_URL", "jdbc:sqlite:" + db,
                "GATEWAY_ACCOUNTS_REDIS_URL", "redis://127.0.0.1:" + closed));
        assertThat(output).contains("error: the gateway could not start: Redis at redis://127.0.0.1:" + closed);
    }

    @Test
    void unreachableDatabaseFailsGatewayStartNamingTheSetting() throws Exception {
        int closed = FreePort.pick();
        Vertx vertx = Vertx.vertx();
        try {
            GatewayConfig config = new ConfigLoader(Map.of("GATEWAY_SERVER_HOST", "127.0.0.1", "GATEWAY_SERVER_PORT", "0",
                    "GATEWAY_ACCOUNTS_DATABASE_URL", "jdbc:postgresql://127.0.0.1:" + closed + "/gateway?user=gw&password=secret")::get)
                    .load(null);
            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> Gateway.start(vertx, config, 1).toCompletionStage()
                    .toCompletableFuture().get(70, TimeUnit.SECONDS));
            assertThat((System.nanoTime() - start) / 1_000_000_000).isLessThan(30);
            assertThat(failure).hasCauseInstanceOf(StartupFailure.class);
            assertThat(failure.getCause().getMessage())
                    .contains("jdbc:postgresql://127.0.0.1:" + closed, "accounts.database_url (GATEWAY_ACCOUNTS_DATABASE_URL)")
                    .doesNotContain("secret");
        } finally {
            vertx.close().await();
        }
    }

    @Test
    void serveExitsNonZeroWhenTheDatabaseIsUnreachable() throws Exception {
        int closed = FreePort.pick();
        String output = serveExpectingExit1(Map.of("GATEWAY_ACCOUNTS_DATABASE_URL",
                "jdbc:postgresql://127.0.0.1:" + closed + "/gateway?user=gw&password=secret"));
        assertThat(output).contains("error: the gateway could not start: The accounts store could not be opened",
                "jdbc:postgresql://127.0.0.1:" + closed, "GATEWAY_ACCOUNTS_DATABASE_URL").doesNotContain("secret");
    }

    /** Runs {@code serve} in its own JVM with {@code env}; asserts it exits with status 1 and returns its output. */
    private static String serveExpectingExit1(Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.modelgateway.Main", "serve");
        pb.environment().put("GATEWAY_SERVER_PORT", "0");
        pb.environment().put("GATEWAY_SERVER_HOST", "127.0.0.1");
        pb.environment().put("GATEWAY_SERVER_MASTER_KEY", "pk-master");
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        try {
            boolean exited = p.waitFor(90, TimeUnit.SECONDS);
            String output = new String(p.getInputStream().readNBytes(64 * 1024), StandardCharsets.UTF_8);
            assertThat(exited).as("the process exits; output: " + output).isTrue();
            assertThat(p.exitValue()).as(output).isEqualTo(1);
            return output;
        } finally {
            p.destroyForcibly();
        }
    }
}
