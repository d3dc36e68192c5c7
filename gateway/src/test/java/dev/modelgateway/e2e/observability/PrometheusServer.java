package dev.modelgateway.e2e.observability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.Eventually;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real Prometheus server (Debian's {@code prometheus} package, installed by scripts/services.sh) on loopback,
 * scraping one target every second, with its HTTP query API.
 */
final class PrometheusServer implements AutoCloseable {
    static final Path BINARY = Path.of("/usr/bin/prometheus");

    private final Process process;
    private final Path dir;
    private final int port;
    private final Path log;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PrometheusServer(Process process, Path dir, int port, Path log) {
        this.process = process;
        this.dir = dir;
        this.port = port;
        this.log = log;
    }

    static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /** Starts Prometheus scraping {@code target} (host:port, path /metrics) and waits until it is ready. */
    static PrometheusServer start(String target) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("prometheus-test");
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, """
                global:
                  scrape_interval: 1s
                  scrape_timeout: 1s
                scrape_configs:
                  - job_name: gateway
                    static_configs:
                      - targets: ['%s']
                """.formatted(target));
        int port = freePort();
        Path log = dir.resolve("prometheus.log");
        Process p = new ProcessBuilder(BINARY.toString(), "--config.file=" + config, "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port, "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        PrometheusServer server = new PrometheusServer(p, dir, port, log);
        try {
            Eventually.until("prometheus ready", Duration.ofSeconds(60), () -> {
                if (!p.isAlive()) throw new IllegalStateException("prometheus exited: " + read(log));
                try {
                    return server.get("/-/ready").statusCode() == 200;
                } catch (IOException | InterruptedException notYet) {
                    return false; // not listening yet
                }
            });
            return server;
        } catch (AssertionError | IllegalStateException e) {
            server.close();
            throw new IllegalStateException("prometheus did not become ready: " + read(log), e);
        }
    }

    /** The value of an instant query that returns one series (or a sum), NaN when it returns none. */
    double query(String promql) {
        try {
            HttpResponse<String> r = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
            JsonNode result = Json.parseOrNull(r.body()).path("data").path("result");
            if (!result.isArray() || result.isEmpty()) return Double.NaN;
            return Double.parseDouble(result.get(0).path("value").get(1).asText());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    /** The query API's status for an expression: "success", or its error (a bad expression, an unknown function). */
    String check(String promql) {
        try {
            JsonNode body = Json.parseOrNull(get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)).body());
            return "success".equals(body.path("status").asText()) ? "success" : body.path("error").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind
        }
    }
}
