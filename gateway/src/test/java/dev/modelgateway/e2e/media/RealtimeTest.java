package dev.modelgateway.e2e.media;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.okhttp.OkHttpClient;
import com.openai.core.ClientOptions;
import com.openai.helpers.RealtimeConnection;
import com.openai.helpers.RealtimeWebSocketOptions;
import com.openai.models.realtime.RealtimeClientEvent;
import com.openai.models.realtime.RealtimeServerEvent;
import com.openai.models.realtime.ResponseCreateEvent;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Realtime over WebSocket, end to end: openai-java's own {@code RealtimeConnection} (4.101 has one) for a
 * session, and a raw Vert.x WebSocket client for the browser subprotocol, refusals and close codes.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class RealtimeTest {
    static final String MODEL = "platform/vendorB-realtime";
    static GatewayHarness h;
    static WebSocketClient ws;

    @BeforeAll
    static void start() {
        ws = h.vertx.createWebSocketClient();
    }

    @Test
    void sdkSessionIsRelayedAndMeteredAsEachResponseCompletes() {
        ClientOptions options = ClientOptions.builder().httpClient(OkHttpClient.builder().build())
                .baseUrl(h.openAiBaseUrl()).apiKey(GatewayHarness.KEY).build();
        long outputTokens = 0;
        int before = h.ledger(MODEL, 0).size();
        try (RealtimeConnection conn = RealtimeConnection.connect(options,
                RealtimeWebSocketOptions.builder().model(MODEL).reconnect(false).build())) {
            assertThat(conn.receive().isSessionCreated()).isTrue();
            for (int i = 0; i < 2; i++) {
                conn.send(RealtimeClientEvent.ofResponseCreate(ResponseCreateEvent.builder().build()));
                StringBuilder text = new StringBuilder();
                RealtimeServerEvent event;
                while (!(event = conn.receive()).isResponseDone()) {
                    event.responseOutputTextDelta().ifPresent(d -> text.append(d.delta()));
                }
                assertThat(text.toString()).startsWith("Hello from vendorB-realtime.");
                long responseTokens = event.asResponseDone().response().usage().orElseThrow().outputTokens().orElseThrow();
                outputTokens += responseTokens;
                // the response's row is written while the session is still open (a crash loses no finished response)
                var row = h.ledger(MODEL, before + i + 1).get(before + i);
                assertThat(((Number) row.get("output_tokens")).longValue()).isEqualTo(responseTokens).isPositive();
                assertThat(((Number) row.get("status")).intValue()).isEqualTo(101);
            }
        }
        var rows = h.ledger(MODEL, before + 2);
        var session = rows.subList(before, rows.size());
        assertThat(session).as("one row per response, none more at the close").hasSize(2);
        assertThat(session.stream().mapToLong(r -> ((Number) r.get("output_tokens")).longValue()).sum()).isEqualTo(outputTokens);
        var upstream = h.sim.received().stream().filter(r -> r.path().startsWith("/openai/v1/realtime")).toList().getLast();
        assertThat(upstream.path()).isEqualTo("/openai/v1/realtime?model=vendorB-realtime");
        assertThat(upstream.headers().get("authorization")).isEqualTo("Bearer sim-openai-key");
    }

    @Test
    void browserSubprotocolAuthAndClientClose() throws Exception {
        LinkedBlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        WebSocket socket = open(connect("/api/v1/realtime?model=" + MODEL)
                .setSubProtocols(List.of("realtime", "openai-insecure-api-key." + GatewayHarness.KEY)), events);
        assertThat(socket.subProtocol()).isEqualTo("realtime");
        assertThat(socket.headers().get("x-platform-trace-id")).isNotBlank();
        assertThat(events.poll(5, TimeUnit.SECONDS).path("type").asText()).isEqualTo("session.created");
        socket.writeTextMessage("""
                {"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"tell me about the gateway"}]}}""");
        socket.writeTextMessage("{\"type\":\"response.create\"}");
        JsonNode done = next(events, "response.done");
        CompletableFuture<Short> closed = new CompletableFuture<>();
        socket.closeHandler(v -> closed.complete(socket.closeStatusCode()));
        socket.close((short) 4000, "bye").await();
        assertThat(closed.get(5, TimeUnit.SECONDS)).isEqualTo((short) 4000);

        JsonNode usage = done.at("/response/usage");
        // this session's row is written when it closes, maybe after another session's of this class: wait for it
        Optional<Map<String, Object>> row = Eventually.value("this session's ledger row", Duration.ofSeconds(10),
                () -> h.ledger(MODEL, 1).stream()
                        .filter(r -> ((Number) r.get("input_tokens")).longValue() == usage.path("input_tokens").asLong())
                        .findFirst(), Optional::isPresent);
        assertThat(usage.path("input_tokens").asLong()).isPositive();
        assertThat(row).isPresent();
        assertThat(((Number) row.get().get("output_tokens")).longValue()).isEqualTo(usage.path("output_tokens").asLong());
        var upstream = h.sim.received().stream().filter(r -> r.path().startsWith("/openai/v1/realtime")).toList().getLast();
        assertThat(upstream.headers().toString()).doesNotContain(GatewayHarness.KEY);
    }

    @Test
    void upstreamCloseClosesTheClient() throws Exception {
        LinkedBlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        WebSocket socket = open(authed("/api/v1/realtime?model=" + MODEL), events);
        CompletableFuture<Short> closed = new CompletableFuture<>();
        socket.closeHandler(v -> closed.complete(socket.closeStatusCode()));
        socket.writeTextMessage("""
                {"type":"conversation.item.create","item":{"type":"message","role":"user","content":[{"type":"input_text","text":"[[sim:disconnect_after=3]]"}]}}""");
        socket.writeTextMessage("{\"type\":\"response.create\"}");
        assertThat(closed.get(5, TimeUnit.SECONDS)).isEqualTo((short) 1011);
        assertThat(events).noneMatch(e -> e.path("type").asText().equals("response.done"));
    }

    @Test
    void refusalsHappenBeforeTheUpgrade() {
        var bad = rejected(connect("/api/v1/realtime?model=" + MODEL).addHeader("authorization", "Bearer pk-wrong"));
        assertThat(bad.getStatus()).isEqualTo(401);
        assertThat(Json.parseOrNull(bad.getBody().toString()).at("/error/type").asText()).isNotBlank();
        assertThat(bad.getHeaders().get("x-platform-trace-id")).isNotBlank();

        var unknown = rejected(authed("/api/v1/realtime?model=platform/nope"));
        assertThat(unknown.getStatus()).isEqualTo(404);
        var notRealtime = rejected(authed("/api/v1/realtime?model=platform/vendorB-5.5"));
        assertThat(notRealtime.getStatus()).isEqualTo(400);
        assertThat(Json.parseOrNull(notRealtime.getBody().toString()).at("/error/param").asText()).isEqualTo("model");
    }

    @Test
    void upstreamRefusalIsA502() {
        h.sim.queueFault("openai", "status=500");
        var refused = rejected(authed("/api/v1/realtime?model=" + MODEL));
        assertThat(refused.getStatus()).isEqualTo(502);
        assertThat(Json.parseOrNull(refused.getBody().toString()).at("/error/code").asText()).isEqualTo("upstream_connect_failed");
    }

    private static WebSocketConnectOptions connect(String uri) {
        return new WebSocketConnectOptions().setHost("127.0.0.1").setPort(h.gateway.port()).setURI(uri);
    }

    private static WebSocketConnectOptions authed(String uri) {
        return connect(uri).addHeader("authorization", "Bearer " + GatewayHarness.KEY);
    }

    private static UpgradeRejectedException rejected(WebSocketConnectOptions options) {
        try {
            ws.connect(options).await();
        } catch (UpgradeRejectedException e) {
            return e;
        }
        throw new AssertionError("the upgrade was accepted");
    }

    /**
     * Connects, collecting the text events from the first one: the handler is set before the upgrade, because the
     * gateway's session.created comes at once (set after, on this thread, it could miss it).
     */
    private static WebSocket open(WebSocketConnectOptions options, LinkedBlockingQueue<JsonNode> events) {
        ClientWebSocket socket = ws.webSocket();
        socket.textMessageHandler(t -> events.add(Json.parseOrNull(t)));
        return socket.connect(options).await();
    }

    private static JsonNode next(LinkedBlockingQueue<JsonNode> events, String type) throws InterruptedException {
        while (true) {
            JsonNode e = events.poll(5, TimeUnit.SECONDS);
            assertThat(e).as("waiting for " + type).isNotNull();
            if (e.path("type").asText().equals(type)) return e;
        }
    }
}
