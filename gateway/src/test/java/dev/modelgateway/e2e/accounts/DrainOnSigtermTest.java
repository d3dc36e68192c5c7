package dev.modelgateway.e2e.accounts;

import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.HttpResponseFor;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import dev.modelgateway.canonical.LocalTokenizer;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.http.TraceId;
import dev.modelgateway.json.Json;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGTERM to a gateway process serving 100 live streams (the official SDKs' and plain HTTP's) keeps the drain contract
 * (docs/operations/shutdown-and-rollouts.md): {@code /ready} answers 503 first, while the streams run; a stream shorter
 * than {@code server.drain_seconds} completes, a longer one ends at the deadline with its protocol's error event as its
 * SDK reads it, none is cut short silently; every call has exactly one ledger row in PostgreSQL, billing what was
 * streamed; the process exits 0 within the drain and its margin. The same contract on a test clock: ShutdownDrainTest.
 */
@E2e
@ExternalStores
@Isolated
class DrainOnSigtermTest {
    static final int STREAMS = 100;
    static final int DRAIN_SECONDS = 8;
    /** Main's margin past the drain: {@code Gateway.AFTER_DRAIN_SECONDS} and Vert.x's close. */
    static final int MARGIN_SECONDS = 15;
    /** 30 text events 100 ms apart (and the protocol's own, up to 8 more): over within the drain, even on a busy machine. */
    static final String SHORT = "[[sim:chunks=30;chunk_delay_ms=100]]";
    /** 300 events 100 ms apart: 30 s, so it is still running at the drain's deadline. */
    static final String LONG = "[[sim:chunks=300;chunk_delay_ms=100]]";
    static final String WARM_UP = "[[sim:chunks=3]]";
    static final String CHAT_MODEL = "platform/vendorB-5.5";
    static final String MESSAGES_MODEL = "platform/vendorA-sonnet-4.5";

    enum Client { OPENAI_SDK_CHAT, ANTHROPIC_SDK_MESSAGES, OPENAI_SDK_RESPONSES, HTTP_CHAT }

    enum End { COMPLETED, ERROR_EVENT, BROKEN }

    /** How one stream went, as its client saw it. */
    record Seen(Client client, boolean longOne, String traceId, String text, End end, String detail, long startedNanos,
                long endedNanos) { }

    /** What a client reports as the stream goes: its first event, then how it ended. */
    static final class Progress {
        final long startedNanos = System.nanoTime();
        volatile boolean begun;
        volatile java.util.concurrent.Future<Seen> stream;
    }

    SharedStores stores;
    Vertx vertx;
    VendorSimulator sim;
    @TempDir
    Path journal;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores();
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
    }

    @AfterEach
    void stop() throws Exception {
        sim.close();
        vertx.close().await();
        stores.close();
    }

    @Test
    void sigtermDuringHundredStreamsFlipsReadyFirstEndsEveryStreamProperlyAndLosesNoRow() throws Exception {
        int port = FreePort.pick();
        Path log = Files.createTempFile("gw-drain", ".log");
        Process gateway = serve(port, log);
        String base = "http://127.0.0.1:" + port;
        try (HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            awaitListening(gateway, log);
            HttpResponse<String> created = http.send(post(base + "/api/v1/admin/keys",
                    "{\"name\":\"drain\",\"max_concurrent\":1000}", GatewayHarness.KEY), HttpResponse.BodyHandlers.ofString());
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            JsonNode key = Json.parseOrNull(created.body());
            String keyId = key.path("id").asText();
            String secret = key.path("key").asText();
            OpenAIClient openai = OpenAIOkHttpClient.builder().baseUrl(base + "/api/v1").apiKey(secret).maxRetries(0).build();
            AnthropicClient anthropic = AnthropicOkHttpClient.builder().baseUrl(base + "/api").authToken(secret).maxRetries(0).build();

            warmUp(http, base);
            List<java.util.concurrent.Future<Seen>> streams = new ArrayList<>();
            ExecutorService callers = Executors.newFixedThreadPool(STREAMS);
            long launched = System.nanoTime();
            // the long streams first, then the short ones, which thus have most of their length left at SIGTERM
            for (String prompt : List.of(LONG, SHORT)) {
                List<Progress> progress = new ArrayList<>();
                for (int i = 0; i < STREAMS / 2; i++) {
                    Client client = Client.values()[i % Client.values().length];
                    Progress p = new Progress();
                    progress.add(p);
                    java.util.concurrent.Future<Seen> stream = callers.submit(() -> switch (client) {
                        case OPENAI_SDK_CHAT -> openAiChat(openai, prompt, p);
                        case ANTHROPIC_SDK_MESSAGES -> anthropicMessages(anthropic, prompt, p);
                        case OPENAI_SDK_RESPONSES -> openAiResponses(openai, prompt, p);
                        case HTTP_CHAT -> httpChat(http, base, secret, prompt, p);
                    });
                    p.stream = stream;
                    streams.add(stream);
                }
                Eventually.until("the " + progress.size() + " streams have begun", Duration.ofMinutes(1),
                        () -> progress.stream().allMatch(p -> p.begun || p.stream.isDone()));
            }
            long begunMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - launched);
            // on a loaded machine the last streams may begin after the first short ones have ended: those must have
            // completed, and enough short ones must still be running for the drain to let them finish
            List<java.util.concurrent.Future<Seen>> runningAtSigterm = streams.stream().filter(f -> !f.isDone()).toList();
            long sigterm = System.nanoTime();
            gateway.destroy(); // SIGTERM
            int readyPolls = 0;
            while (true) {
                readyPolls++;
                HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create(base + "/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                if (ready.statusCode() == 503) break;
                assertThat(ready.statusCode()).isEqualTo(200);
                assertThat(System.nanoTime() - sigterm).as("/ready turned 503").isLessThan(TimeUnit.SECONDS.toNanos(DRAIN_SECONDS));
            }
            long readyFlippedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sigterm);
            long running = streams.stream().filter(f -> !f.isDone()).count();
            List<Seen> endedBeforeReady = streams.stream().filter(java.util.concurrent.Future::isDone).map(DrainOnSigtermTest::get).toList();
            assertThat(running).as("streams still running as /ready turned 503").isPositive();
            assertThat(endedBeforeReady).as("no stream ended abnormally before /ready turned 503")
                    .allMatch(s -> s.end() == End.COMPLETED);

            assertThat(gateway.waitFor(DRAIN_SECONDS + MARGIN_SECONDS, TimeUnit.SECONDS))
                    .as("exited within the drain and its margin; " + tail(log)).isTrue();
            long exitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sigterm);
            assertThat(gateway.exitValue()).as(tail(log)).isZero();
            callers.shutdown();
            assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
            openai.close();
            anthropic.close();

            List<Seen> seen = streams.stream().map(DrainOnSigtermTest::get).toList();
            Map<End, Long> ends = seen.stream().collect(Collectors.groupingBy(Seen::end, Collectors.counting()));
            long deadline = sigterm + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
            long firstCutMs = seen.stream().filter(Seen::longOne).mapToLong(s -> TimeUnit.NANOSECONDS.toMillis(s.endedNanos() - sigterm))
                    .min().orElseThrow();
            LongSummaryStatistics shortMs = seen.stream().filter(x -> !x.longOne())
                    .mapToLong(x -> TimeUnit.NANOSECONDS.toMillis(x.endedNanos() - x.startedNanos())).summaryStatistics();
            List<LedgerRows.Row> rows = LedgerRows.read(stores.databaseUrl(), keyId);
            Map<String, List<LedgerRows.Row>> byTrace = rows.stream().collect(Collectors.groupingBy(LedgerRows.Row::traceId));
            long shortRunning = streams.stream().filter(runningAtSigterm::contains).map(DrainOnSigtermTest::get)
                    .filter(x -> !x.longOne()).count();
            long shortFinishedInDrain = streams.stream().filter(runningAtSigterm::contains).map(DrainOnSigtermTest::get)
                    .filter(x -> !x.longOne() && x.end() == End.COMPLETED).count();
            String figures = STREAMS + " streams begun in " + begunMs + " ms ("
                    + seen.stream().collect(Collectors.groupingBy(Seen::client, Collectors.counting())) + "), "
                    + runningAtSigterm.size() + " running at SIGTERM (" + shortRunning + " short ones); /ready 503 after "
                    + readyFlippedMs + " ms (" + readyPolls + " polls) with " + running + " streams running; the short ones"
                    + " lasted " + shortMs.getMin() + "–" + shortMs.getMax() + " ms, " + shortFinishedInDrain
                    + " completed during the drain; completed " + ends.getOrDefault(End.COMPLETED, 0L)
                    + ", ended with the error event " + ends.getOrDefault(End.ERROR_EVENT, 0L) + " (the first " + firstCutMs
                    + " ms after SIGTERM), broken " + ends.getOrDefault(End.BROKEN, 0L) + "; exit 0 after " + exitedMs
                    + " ms; ledger rows " + rows.size();
            System.out.println("drain on SIGTERM: " + figures);
            assertThat(seen).as("no stream cut short silently: " + seen.stream().filter(s -> s.end() == End.BROKEN).toList())
                    .noneMatch(s -> s.end() == End.BROKEN);
            assertThat(seen).as("each stream shorter than the drain completes").filteredOn(s -> !s.longOne())
                    .allMatch(s -> s.end() == End.COMPLETED);
            assertThat(seen).as("each longer one ends with its protocol's error event").filteredOn(Seen::longOne)
                    .allMatch(s -> s.end() == End.ERROR_EVENT);
            assertThat(seen).as("the long streams ran the whole drain").filteredOn(Seen::longOne)
                    .allMatch(s -> s.endedNanos() >= deadline);
            assertThat(runningAtSigterm.size() - shortRunning).as("every long stream was running at SIGTERM; " + figures)
                    .isEqualTo(STREAMS / 2);
            assertThat(shortFinishedInDrain).as("short streams in flight at SIGTERM went on to their end; " + figures)
                    .isEqualTo(shortRunning).isGreaterThanOrEqualTo(STREAMS / 10);

            assertThat(rows).as(figures).hasSize(STREAMS);
            for (Seen s : seen) {
                List<LedgerRows.Row> own = byTrace.getOrDefault(s.traceId(), List.of());
                assertThat(own).as("one row for " + s + "; " + figures).hasSize(1);
                LedgerRows.Row row = own.getFirst();
                assertThat(row.status()).as(s.toString()).isEqualTo(s.end() == End.COMPLETED ? 200 : 503);
                assertThat(row.usage().outputTokens()).as("what was streamed is billed: " + s).isPositive();
                if (s.end() == End.ERROR_EVENT) {
                    assertThat(row.usage().outputTokens()).as("the cut stream's relayed text is billed: " + s)
                            .isGreaterThanOrEqualTo(LocalTokenizer.count(s.text()));
                }
            }
            assertThat(Files.readString(log)).contains("draining").contains("Model Gateway stopped");
        } finally {
            gateway.destroyForcibly();
        }
    }

    /**
     * One short stream per kind of client first, with the master key (its rows are not the test key's): the clients'
     * classes are loaded before the 100 streams start, so that they all begin within a moment.
     */
    private static void warmUp(HttpClient http, String base) throws Exception {
        OpenAIClient openai = OpenAIOkHttpClient.builder().baseUrl(base + "/api/v1").apiKey(GatewayHarness.KEY).maxRetries(0).build();
        AnthropicClient anthropic = AnthropicOkHttpClient.builder().baseUrl(base + "/api").authToken(GatewayHarness.KEY).maxRetries(0)
                .build();
        Progress p = new Progress();
        assertThat(List.of(openAiChat(openai, WARM_UP, p), anthropicMessages(anthropic, WARM_UP, p), openAiResponses(openai, WARM_UP, p),
                httpChat(http, base, GatewayHarness.KEY, WARM_UP, p))).allMatch(s -> s.end() == End.COMPLETED);
        openai.close();
        anthropic.close();
    }

    private static Seen openAiChat(OpenAIClient client, String prompt, Progress p) {
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model(CHAT_MODEL)
                .addUserMessage(prompt).build();
        HttpResponseFor<com.openai.core.http.StreamResponse<ChatCompletionChunk>> raw =
                client.chat().completions().withRawResponse().createStreaming(params);
        String trace = raw.headers().values(TraceId.HEADER).getFirst();
        StringBuilder text = new StringBuilder();
        boolean finished = false;
        try (var stream = raw.parse()) {
            for (ChatCompletionChunk chunk : (Iterable<ChatCompletionChunk>) stream.stream()::iterator) {
                p.begun = true;
                if (chunk.choices().isEmpty()) continue;
                chunk.choices().getFirst().delta().content().ifPresent(text::append);
                if (chunk.choices().getFirst().finishReason().isPresent()) finished = true;
            }
        } catch (com.openai.errors.SseException e) {
            return seen(Client.OPENAI_SDK_CHAT, prompt, p, trace, text, "server_shutting_down".equals(e.code().orElse(null))
                    ? End.ERROR_EVENT : End.BROKEN, e.toString());
        } catch (RuntimeException e) {
            return seen(Client.OPENAI_SDK_CHAT, prompt, p, trace, text, End.BROKEN, e.toString());
        }
        return seen(Client.OPENAI_SDK_CHAT, prompt, p, trace, text, finished ? End.COMPLETED : End.BROKEN, finished ? "" : "no finish_reason");
    }

    private static Seen anthropicMessages(AnthropicClient client, String prompt, Progress p) {
        MessageCreateParams params = MessageCreateParams.builder().model(MESSAGES_MODEL).maxTokens(4096)
                .addUserMessage(prompt).build();
        var raw = client.messages().withRawResponse().createStreaming(params);
        String trace = raw.headers().values(TraceId.HEADER).getFirst();
        StringBuilder text = new StringBuilder();
        boolean stopped = false;
        try (StreamResponse<RawMessageStreamEvent> stream = raw.parse()) {
            for (RawMessageStreamEvent event : (Iterable<RawMessageStreamEvent>) stream.stream()::iterator) {
                p.begun = true;
                event.contentBlockDelta().flatMap(d -> d.delta().text()).ifPresent(t -> text.append(t.text()));
                if (event.isMessageStop()) stopped = true;
            }
        } catch (com.anthropic.errors.SseException e) {
            return seen(Client.ANTHROPIC_SDK_MESSAGES, prompt, p, trace, text, String.valueOf(e.body()).contains("shutting down")
                    ? End.ERROR_EVENT : End.BROKEN, e.toString());
        } catch (RuntimeException e) {
            return seen(Client.ANTHROPIC_SDK_MESSAGES, prompt, p, trace, text, End.BROKEN, e.toString());
        }
        return seen(Client.ANTHROPIC_SDK_MESSAGES, prompt, p, trace, text, stopped ? End.COMPLETED : End.BROKEN, stopped ? "" : "no message_stop");
    }

    private static Seen openAiResponses(OpenAIClient client, String prompt, Progress p) {
        ResponseCreateParams params = ResponseCreateParams.builder().model(CHAT_MODEL).input(prompt)
                .store(false).build();
        HttpResponseFor<com.openai.core.http.StreamResponse<ResponseStreamEvent>> raw =
                client.responses().withRawResponse().createStreaming(params);
        String trace = raw.headers().values(TraceId.HEADER).getFirst();
        StringBuilder text = new StringBuilder();
        ResponseStreamEvent last = null;
        try (var stream = raw.parse()) {
            for (ResponseStreamEvent event : (Iterable<ResponseStreamEvent>) stream.stream()::iterator) {
                p.begun = true;
                event.outputTextDelta().ifPresent(d -> text.append(d.delta()));
                last = event;
            }
        } catch (RuntimeException e) {
            return seen(Client.OPENAI_SDK_RESPONSES, prompt, p, trace, text, End.BROKEN, e.toString());
        }
        // the Responses protocol's error is an event of the stream, its last
        if (last != null && last.error().flatMap(e -> e.code()).filter("server_shutting_down"::equals).isPresent()) {
            return seen(Client.OPENAI_SDK_RESPONSES, prompt, p, trace, text, End.ERROR_EVENT, last.toString());
        }
        return seen(Client.OPENAI_SDK_RESPONSES, prompt, p, trace, text, last != null && last.isCompleted() ? End.COMPLETED : End.BROKEN,
                String.valueOf(last));
    }

    /** Plain HTTP/1.1 and SSE read line by line: the error event must be the last data line, nothing after it. */
    private static Seen httpChat(HttpClient http, String base, String secret, String prompt, Progress p) throws Exception {
        HttpResponse<InputStream> r = http.send(post(base + "/api/v1/chat/completions", "{\"model\":\"" + CHAT_MODEL
                + "\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}", secret),
                HttpResponse.BodyHandlers.ofInputStream());
        String trace = r.headers().firstValue(TraceId.HEADER).orElseThrow();
        StringBuilder text = new StringBuilder();
        List<String> data = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (!line.startsWith("data: ")) continue;
                p.begun = true;
                data.add(line.substring(6));
                JsonNode chunk = Json.parseOrNull(line.substring(6));
                if (chunk != null) text.append(chunk.path("choices").path(0).path("delta").path("content").asText(""));
            }
        } catch (IOException e) {
            return seen(Client.HTTP_CHAT, prompt, p, trace, text, End.BROKEN, e.toString());
        }
        String last = data.isEmpty() ? "" : data.getLast();
        JsonNode lastChunk = Json.parseOrNull(last);
        if (lastChunk != null && "server_shutting_down".equals(lastChunk.path("error").path("code").asText())) {
            return seen(Client.HTTP_CHAT, prompt, p, trace, text, End.ERROR_EVENT, last);
        }
        boolean finished = last.equals("[DONE]") && data.size() > 1
                && !Json.parseOrNull(data.get(data.size() - 2)).path("choices").path(0).path("finish_reason").isNull();
        return seen(Client.HTTP_CHAT, prompt, p, trace, text, finished ? End.COMPLETED : End.BROKEN, last);
    }

    private static Seen seen(Client client, String prompt, Progress p, String trace, StringBuilder text, End end, String detail) {
        return new Seen(client, prompt.equals(LONG), trace, text.toString(), end, detail, p.startedNanos, System.nanoTime());
    }

    private static Seen get(java.util.concurrent.Future<Seen> f) {
        try {
            return f.get();
        } catch (Exception e) {
            throw new AssertionError("a stream's client failed", e);
        }
    }

    private Process serve(int port, Path output) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.modelgateway.Main", "serve");
        SimKeys keys = SimKeys.defaults();
        pb.environment().putAll(Map.of("GATEWAY_SERVER_HOST", "127.0.0.1", "GATEWAY_SERVER_PORT", Integer.toString(port),
                "GATEWAY_SERVER_MASTER_KEY", GatewayHarness.KEY, "GATEWAY_ACCOUNTS_DATABASE_URL", stores.databaseUrl(),
                "GATEWAY_ACCOUNTS_LEDGER_JOURNAL_DIR", journal.toString(),
                "GATEWAY_SERVER_DRAIN_SECONDS", Integer.toString(DRAIN_SECONDS),
                "ANTHROPIC_BASE_URL", sim.baseUrl() + "/anthropic", "ANTHROPIC_API_KEY", keys.anthropic(),
                "OPENAI_BASE_URL", sim.baseUrl() + "/openai/v1", "OPENAI_API_KEY", keys.openai()));
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

    private static String tail(Path log) {
        String all = read(log);
        return all.substring(Math.max(0, all.length() - 4000));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpRequest post(String url, String json, String bearer) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("content-type", "application/json").header("authorization", "Bearer " + bearer)
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }
}
