package dev.modelgateway.e2e.routing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.MultipartForms;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoints without {@code platform_options} choose their deployment by weight like chat does: the built-in
 * providers of vendors A, B and C each get two keys at 1:1, and four calls of each kind reach each key exactly twice
 * (counted from the keys the simulator's request log saw); a stored vendor B response, which names no model, is asked
 * of vendor B's deployments by weight too. Before, every image, speech and transcription call went to the first key,
 * and realtime, token counting, transcription tasks and stored responses used the built-in vendor's own key.
 */
@E2e
class OperationDeploymentsTest {
    static final String BOUNDARY = "routing-test";
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness h;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0, SimKeys.anyKey()).await();
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, GatewayHarness.simVendors(sim) + """
                providers:
                  openai: {keys: [b-key-one, b-key-two]}
                  anthropic: {keys: [a-key-one, a-key-two]}
                  gemini: {keys: [c-key-one, c-key-two]}
                """);
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
    }

    @AfterAll
    static void stop() {
        h.close();
        sim.close().await();
        vertx.close().await();
    }

    @BeforeEach
    void clean() {
        sim.clearReceived();
    }

    @Test
    void embeddings() {
        fourCalls(() -> h.postAuthed("/api/v1/embeddings", "{\"model\":\"platform/text-embedding-3-small\",\"input\":\"hello\"}"));
        assertTwoEach("/openai/v1/embeddings", "authorization", "Bearer b-key-one", "Bearer b-key-two");
    }

    @Test
    void imageGenerations() {
        fourCalls(() -> h.postAuthed("/api/v1/images/generations", "{\"model\":\"platform/vendorB-image-2\",\"prompt\":\"a cat\"}"));
        assertTwoEach("/openai/v1/images/generations", "authorization", "Bearer b-key-one", "Bearer b-key-two");
    }

    @Test
    void imageEdits() throws IOException {
        byte[] form = form(Map.of("model", "platform/vendorB-image-2", "prompt", "a hat"), "image", "in.png", png());
        fourCalls(() -> h.postMultipartAuthed("/api/v1/images/edits", BOUNDARY, form));
        assertTwoEach("/openai/v1/images/edits", "authorization", "Bearer b-key-one", "Bearer b-key-two");
    }

    @Test
    void imageScales() throws IOException {
        String image = Base64.getEncoder().encodeToString(png());
        fourCalls(() -> h.postAuthed("/api/v1/images/scales",
                "{\"model\":\"platform/vendorC-imagen-upscale\",\"image\":\"data:image/png;base64," + image + "\",\"scale\":2}"));
        assertTwoEach(":predict", "x-goog-api-key", "c-key-one", "c-key-two");
    }

    @Test
    void speech() {
        fourCalls(() -> h.postAuthed("/api/v1/audio/speech", "{\"model\":\"platform/vendorB-tts\",\"input\":\"hello\",\"voice\":\"alloy\"}"));
        assertTwoEach("/openai/v1/audio/speech", "authorization", "Bearer b-key-one", "Bearer b-key-two");
    }

    @Test
    void transcriptions() {
        byte[] form = form(Map.of("model", "platform/vendorB-transcribe"), "file", "a.wav", new byte[3200]);
        fourCalls(() -> h.postMultipartAuthed("/api/v1/audio/transcriptions", BOUNDARY, form));
        assertTwoEach("/openai/v1/audio/transcriptions", "authorization", "Bearer b-key-one", "Bearer b-key-two");
    }

    @Test
    void transcriptionTasks() {
        byte[] form = form(Map.of("model", "platform/vendorB-transcribe"), "file", "a.wav", new byte[3200]);
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = h.postMultipartAuthed("/api/v1/audio/transcriptions/tasks", BOUNDARY, form);
            assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
            awaitSucceeded(Json.parseOrNull(r.body()).path("id").asText());
        }
        assertTwoEach("/openai/v1/audio/transcriptions", "authorization", "Bearer b-key-one", "Bearer b-key-two");
    }

    @Test
    void tokenCounting() {
        fourCalls(() -> h.postAuthed("/api/v1/messages/count_tokens",
                "{\"model\":\"platform/vendorA-sonnet-5\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}"));
        assertTwoEach("/anthropic/v1/messages/count_tokens", "x-api-key", "a-key-one", "a-key-two");
    }

    @Test
    void storedResponses() {
        HttpResponse<String> created = h.postAuthed("/api/v1/responses", "{\"model\":\"platform/vendorB-5.5\",\"input\":\"hello\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        String id = Json.parseOrNull(created.body()).path("id").asText();
        sim.clearReceived();
        fourCalls(() -> h.getAuthed("/api/v1/responses/" + id));
        assertTwoEach("/openai/v1/responses/" + id, "authorization", "Bearer b-key-one", "Bearer b-key-two");
    }

    @Test
    void realtimeSessions() throws Exception {
        WebSocketClient client = vertx.createWebSocketClient();
        try {
            for (int i = 0; i < 4; i++) {
                BlockingQueue<JsonNode> events = new ArrayBlockingQueue<>(16);
                // the handler is set before the upgrade: the gateway's session.created comes at once
                ClientWebSocket socket = client.webSocket();
                socket.textMessageHandler(t -> events.add(Json.parseOrNull(t)));
                socket.connect(new WebSocketConnectOptions().setHost("127.0.0.1").setPort(h.gateway.port())
                        .setURI("/api/v1/realtime?model=platform/vendorB-realtime")
                        .addHeader("authorization", "Bearer " + GatewayHarness.KEY)).await();
                JsonNode first = events.poll(10, TimeUnit.SECONDS);
                assertThat(first).isNotNull();
                assertThat(first.path("type").asText()).isEqualTo("session.created");
                socket.close().await();
            }
        } finally {
            client.close().await();
        }
        assertTwoEach("/openai/v1/realtime", "authorization", "Bearer b-key-one", "Bearer b-key-two");
    }

    private static void fourCalls(Supplier<HttpResponse<String>> call) {
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = call.get();
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
    }

    /** The requests whose path contains {@code path} carried each of the two keys exactly twice. */
    private static void assertTwoEach(String path, String header, String one, String two) {
        Map<String, Long> byKey = sim.received().stream().filter(r -> r.path().contains(path))
                .collect(Collectors.groupingBy((ReceivedRequest r) -> String.valueOf(r.headers().get(header)), Collectors.counting()));
        assertThat(byKey).containsExactlyInAnyOrderEntriesOf(Map.of(one, 2L, two, 2L));
    }

    private static void awaitSucceeded(String id) {
        String status = Eventually.value("task " + id + " ended", Duration.ofSeconds(15),
                () -> Json.parseOrNull(h.getAuthed("/api/v1/audio/transcriptions/tasks/" + id).body()).path("status").asText(),
                s -> !s.equals("queued") && !s.equals("running"));
        assertThat(status).as("task " + id).isEqualTo("succeeded");
    }

    private static byte[] form(Map<String, String> fields, String fileField, String fileName, byte[] file) {
        return MultipartForms.of(BOUNDARY, fields, fileField, fileName, "application/octet-stream", file);
    }

    private static byte[] png() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(new BufferedImage(2, 2, BufferedImage.TYPE_INT_RGB), "png", out);
        return out.toByteArray();
    }
}
