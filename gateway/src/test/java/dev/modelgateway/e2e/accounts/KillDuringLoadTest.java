package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.http.TraceId;
import dev.modelgateway.json.Json;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} of a gateway serving 64 concurrent callers loses no usage row: each row is journaled before its
 * answer ends, and the journal is replayed at the next start, once (docs/accounts.md, "A ledger that loses nothing").
 */
@E2e
@ExternalStores
@Isolated
class KillDuringLoadTest {
    static final String MODEL = "platform/vendorA-sonnet-4.5";
    static final int CONCURRENCY = 64;
    /** Answers received before the kill: enough that the ledger writer is surely behind (it writes every 250 ms). */
    static final int ANSWERS_BEFORE_KILL = 600;

    SharedStores stores;
    GatewayHarness owner;
    @TempDir
    Path journal;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores();
        owner = stores.gateway().start();
    }

    @AfterEach
    void stop() throws Exception {
        owner.close();
        stores.close();
    }

    @Test
    void killNineUnderLoadLosesNoRowAndCountsNoneTwice() throws Exception {
        int port = FreePort.pick();
        Path log1 = Files.createTempFile("gw-kill", ".log");
        Process first = serve(port, log1);
        String base = "http://127.0.0.1:" + port + "/api/v1";
        Map<String, String> answered = new ConcurrentHashMap<>(); // trace id → body
        AtomicInteger cut = new AtomicInteger();
        String keyId;
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            awaitListening(first, log1);
            HttpResponse<String> created = send(http, base + "/admin/keys",
                    "{\"name\":\"kill-9\",\"max_concurrent\":1000}", GatewayHarness.KEY);
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode key = Json.parseOrNull(created.body());
            keyId = key.path("id").asText();
            String secret = key.path("key").asText();
            String body = "{\"model\":\"" + MODEL + "\",\"max_tokens\":32,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

            AtomicBoolean killed = new AtomicBoolean();
            ExecutorService callers = Executors.newFixedThreadPool(CONCURRENCY);
            for (int i = 0; i < CONCURRENCY; i++) {
                callers.submit(() -> {
                    while (!killed.get()) {
                        try {
                            HttpResponse<String> r = send(http, base + "/messages", body, secret);
                            if (r.statusCode() == 200 && r.body().contains("\"usage\"")) {
                                answered.put(r.headers().firstValue(TraceId.HEADER).orElseThrow(), r.body());
                            }
                        } catch (Exception e) {
                            cut.incrementAndGet(); // in flight when the process died
                        }
                    }
                    return null;
                });
            }
            Eventually.until("answers under load within two minutes", Duration.ofMinutes(2),
                    () -> answered.size() >= ANSWERS_BEFORE_KILL);
            first.destroyForcibly(); // SIGKILL: no shutdown hook, no flush
            assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
            killed.set(true);
            callers.shutdown();
            assertThat(callers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
        int rowsBeforeRestart = LedgerRows.read(stores.databaseUrl(), keyId).size();

        Path log2 = Files.createTempFile("gw-restart", ".log");
        Process second = serve(port, log2);
        try {
            awaitListening(second, log2); // the journal is replayed before the port opens
            List<LedgerRows.Row> rows = LedgerRows.read(stores.databaseUrl(), keyId);
            Set<String> traces = new HashSet<>();
            Map<String, Integer> perTrace = new HashMap<>();
            rows.forEach(r -> perTrace.merge(r.traceId(), 1, Integer::sum));
            traces.addAll(perTrace.keySet());
            String figures = "answered " + answered.size() + ", rows before restart " + rowsBeforeRestart
                    + ", rows after " + rows.size() + ", calls cut by the kill " + cut.get();
            System.out.println("kill -9 under load: " + figures);
            assertThat(perTrace.values()).as("no row twice; " + figures).allMatch(n -> n == 1);
            assertThat(traces).as("every answered call has its row; " + figures).containsAll(answered.keySet());
            // A row without an answer is a call whose answer the kill cut after its row was journaled: the vendor
            // was paid for it. There can be no more of them than calls were in flight.
            assertThat(rows.size() - answered.size()).as(figures).isBetween(0, CONCURRENCY);
            assertThat(rowsBeforeRestart).as("the journal, not the database, held the last rows; " + figures)
                    .isLessThan(answered.size());
            assertThat(Files.readString(log2)).contains("usage rows replayed");
            List<String> leftover = new ArrayList<>();
            try (var files = Files.list(journal)) {
                files.forEach(p -> leftover.add(p.getFileName().toString()));
            }
            assertThat(leftover).as("the replayed segment is gone; the new process has its own").hasSize(1);
        } finally {
            second.destroy();
            second.waitFor(30, TimeUnit.SECONDS);
            second.destroyForcibly();
        }
    }

    private Process serve(int port, Path output) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.modelgateway.Main", "serve");
        pb.environment().putAll(Map.of("GATEWAY_SERVER_HOST", "127.0.0.1", "GATEWAY_SERVER_PORT", Integer.toString(port),
                "GATEWAY_SERVER_MASTER_KEY", GatewayHarness.KEY, "GATEWAY_ACCOUNTS_DATABASE_URL", stores.databaseUrl(),
                "GATEWAY_ACCOUNTS_LEDGER_JOURNAL_DIR", journal.toString(),
                "ANTHROPIC_BASE_URL", owner.sim.baseUrl() + "/anthropic", "ANTHROPIC_API_KEY", SimKeys.defaults().anthropic()));
        pb.redirectErrorStream(true);
        pb.redirectOutput(output.toFile());
        return pb.start();
    }

    private static void awaitListening(Process p, Path output) {
        Eventually.until("started within a minute", Duration.ofMinutes(1), () -> {
            String log = read(output);
            assertThat(p.isAlive()).as(log).isTrue();
            return log.contains("listening on");
        });
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpResponse<String> send(HttpClient http, String url, String json, String bearer) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json").header("authorization", "Bearer " + bearer)
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
