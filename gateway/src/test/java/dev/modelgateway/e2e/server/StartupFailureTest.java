package dev.modelgateway.e2e.server;

import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.server.Gateway;
import dev.modelgateway.server.StartupFailure;
import dev.modelgateway.e2e.GatewayHarness;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Hardening item 19: an unreachable Redis fails start-up, clearly and in bounded time, and `serve` exits non-zero. */
class StartupFailureTest {

    @Test
    void unreachableRedisFailsGatewayStartWithAClearCause() throws Exception {
        int closed = FreePort.pick();
        Vertx vertx = Vertx.vertx();
        try {
            GatewayConfig config = new ConfigLoader(Map.of("GATEWAY_HOST", "127.0.0.1", "GATEWAY_PORT", "0",
                    "GATEWAY_DATABASE_URL", GatewayHarness.tempDatabaseUrl(),
                    "GATEWAY_REDIS_URL", "redis://:secret@127.0.0.1:" + closed)::get).load(null);
            long start = System.nanoTime();
            Throwable failure = catchThrowable(() -> Gateway.start(vertx, config, 1).toCompletionStage()
                    .toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertThat((System.nanoTime() - start) / 1_000_000_000).isLessThan(15);
            assertThat(failure).hasCauseInstanceOf(StartupFailure.class);
            assertThat(failure.getCause().getMessage())
                    .contains("Redis at redis://***@127.0.0.1:" + closed, "GATEWAY_REDIS_URL", "unreachable")
                    .doesNotContain("secret");
        } finally {
            vertx.close().await();
        }
    }

    @Test
    void serveExitsNonZeroWhenRedisIsUnreachable() throws Exception {
        int closed = FreePort.pick();
        Path db = java.nio.file.Files.createTempFile("gw-startup", ".db");
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.modelgateway.Main", "serve");
        pb.environment().put("GATEWAY_PORT", "0");
        pb.environment().put("GATEWAY_HOST", "127.0.0.1");
        pb.environment().put("GATEWAY_MASTER_KEY", "pk-master");
        pb.environment().put("GATEWAY_DATABASE_URL", "jdbc:sqlite:" + db);
        pb.environment().put("GATEWAY_REDIS_URL", "redis://127.0.0.1:" + closed);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        try {
            boolean exited = p.waitFor(60, TimeUnit.SECONDS);
            String output = new String(p.getInputStream().readNBytes(64 * 1024), StandardCharsets.UTF_8);
            assertThat(exited).as("the process exits; output: " + output).isTrue();
            assertThat(p.exitValue()).isEqualTo(1);
            assertThat(output).contains("error: the gateway could not start: Redis at redis://127.0.0.1:" + closed);
        } finally {
            p.destroyForcibly();
        }
    }
}
