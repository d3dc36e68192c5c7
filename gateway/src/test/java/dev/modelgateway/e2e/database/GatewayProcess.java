package dev.modelgateway.e2e.database;

import dev.modelgateway.server.FreePort;
import dev.modelgateway.testing.Eventually;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway's own command line ({@code dev.modelgateway.Main}) in a JVM of its own, on this test run's class path:
 * {@code serve} as a process a test can stop or kill, and the one-shot commands an operator runs beside it
 * ({@code backup}, {@code journal replay}). The environment carries the configuration, as it would on a server.
 */
final class GatewayProcess implements AutoCloseable {
    private final Process process;
    private final Path log;
    private final int port;

    private GatewayProcess(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** {@code serve} with {@code env} on a free port, once it listens. */
    static GatewayProcess serve(Map<String, String> env) throws IOException {
        int port = FreePort.pick();
        Path log = Files.createTempFile("gw-serve", ".log");
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("GATEWAY_SERVER_HOST", "127.0.0.1");
        all.put("GATEWAY_SERVER_PORT", Integer.toString(port));
        GatewayProcess gw = new GatewayProcess(start(List.of("serve"), all, log), log, port);
        Eventually.until("the gateway listening within a minute", Duration.ofMinutes(1), () -> {
            assertThat(gw.process.isAlive()).as(gw.log()).isTrue();
            return gw.log().contains("listening on");
        });
        return gw;
    }

    /** A command that ends ({@code backup}, {@code journal replay}): its exit status and output. */
    static Result run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        Path log = Files.createTempFile("gw-command", ".log");
        Process p = start(List.of(args), env, log);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).as(String.join(" ", args)).isTrue();
        String output = Files.readString(log);
        Files.delete(log);
        return new Result(p.exitValue(), output);
    }

    record Result(int status, String output) {
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port + "/api/v1";
    }

    String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGKILL: no shutdown hook, nothing flushed. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    /** SIGTERM: the drain, the ledger written, the journal closed. */
    void stop() throws InterruptedException {
        process.destroy();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(log()).isTrue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Process start(List<String> args, Map<String, String> env, Path output) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.modelgateway.Main"));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        pb.redirectOutput(output.toFile());
        return pb.start();
    }
}
