package dev.modelgateway.e2e;

import dev.modelgateway.server.FreePort;
import dev.modelgateway.testing.Eventually;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A real HAProxy (Debian's {@code haproxy} package, installed by scripts/services.sh) on a free loopback port, in front
 * of gateway instances, running the configuration the operations docs show (deploy/haproxy/haproxy.cfg, its addresses
 * from the environment as documented).
 */
public final class HaProxy implements AutoCloseable {
    public static final Path BINARY = Path.of("/usr/sbin/haproxy");
    /** The documented configuration, seen from the gateway module's directory (where the tests run). */
    public static final Path CONFIG = Path.of("../deploy/haproxy/haproxy.cfg");

    private final Process process;
    private final Path log;
    private final int port;

    private HaProxy(Process process, Path log, int port) {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** The environment the documented configuration reads: where to listen, and the two instances. */
    public static Map<String, String> environment(int listen, int gw1, int gw2) {
        return Map.of("GW_LISTEN", "127.0.0.1:" + listen, "GW1", "127.0.0.1:" + gw1, "GW2", "127.0.0.1:" + gw2);
    }

    /** {@code haproxy -c}: HAProxy's own check of the configuration, with its output. */
    public static String check(Map<String, String> env) {
        return run(List.of(BINARY.toString(), "-c", "-f", CONFIG.toString()), env);
    }

    /** Starts HAProxy in the foreground before {@code a} and {@code b}, and waits until it answers through both. */
    public static HaProxy start(GatewayHarness a, GatewayHarness b) {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY + " is missing: scripts/services.sh installs Debian's haproxy package"
                    + " (./gw test runs it)");
        }
        int port = FreePort.pick();
        try {
            Path log = Files.createTempFile("haproxy", ".log");
            ProcessBuilder pb = new ProcessBuilder(BINARY.toString(), "-db", "-f", CONFIG.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().putAll(environment(port, a.gateway.port(), b.gateway.port()));
            HaProxy proxy = new HaProxy(pb.start(), log, port);
            try {
                HttpClient http = HttpClient.newHttpClient();
                Eventually.until("HAProxy answers", Duration.ofSeconds(30), () -> {
                    if (!proxy.process.isAlive()) throw new IllegalStateException("haproxy exited: " + proxy.log());
                    try {
                        return http.send(HttpRequest.newBuilder(URI.create(proxy.url() + "/ready")).build(),
                                HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
                    } catch (IOException notYet) {
                        return false;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return false;
                    }
                });
                return proxy;
            } catch (RuntimeException | AssertionError e) {
                proxy.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:<port>}: what clients are given instead of an instance's address. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** HAProxy's output so far: its start-up messages and one line per request ({@code option httplog}). */
    public String log() {
        try {
            return Files.readString(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String run(List<String> command, Map<String, String> env) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().putAll(env);
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(30, TimeUnit.SECONDS)) p.destroyForcibly();
            return "exit " + p.exitValue() + ": " + out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Files.deleteIfExists(log);
        } catch (IOException ignored) {
            // a temporary file left behind
        }
    }
}
