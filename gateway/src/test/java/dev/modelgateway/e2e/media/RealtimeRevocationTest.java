package dev.modelgateway.e2e.media;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A realtime session is admitted at its upgrade but checked while it runs: a key disabled or a budget spent
 * since then ends the session (close 1008) instead of letting it run on for as long as the caller likes, and every
 * {@code response.create} is checked before it reaches the vendor.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class RealtimeRevocationTest {
    static final String MODEL = "platform/vendorB-realtime";
    static GatewayHarness h;
    static AdminApi admin;
    static WebSocketClient ws;

    @BeforeAll
    static void start() {
        ws = h.vertx.createWebSocketClient();
    }

    private static WebSocket open(String key, LinkedBlockingQueue<JsonNode> events, CompletableFuture<Short> closed) {
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(h.gateway.port())
                .setURI("/api/v1/realtime?model=" + MODEL).addHeader("authorization", "Bearer " + key);
        // the handlers are set before the upgrade: the gateway's session.created comes at once
        ClientWebSocket s = ws.webSocket();
        s.textMessageHandler(t -> events.add(Json.parseOrNull(t)));
        s.closeHandler(v -> closed.complete(s.closeStatusCode()));
        return s.connect(options).await();
    }

    private static JsonNode next(LinkedBlockingQueue<JsonNode> events, String type) throws InterruptedException {
        while (true) {
            JsonNode e = events.poll(5, TimeUnit.SECONDS);
            assertThat(e).as("waiting for " + type).isNotNull();
            if (e.path("type").asText().equals(type)) return e;
        }
    }

    @Test
    void disablingTheKeyEndsItsOpenSession() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"realtime-revoked\"}");
        LinkedBlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        CompletableFuture<Short> closed = new CompletableFuture<>();
        open(key.secret(), events, closed);
        next(events, "session.created");

        admin.patch(key.id(), "{\"disabled\":true}");

        assertThat(closed.get(8, TimeUnit.SECONDS)).isEqualTo((short) 1008);
    }

    @Test
    void aBudgetSpentDuringTheSessionEndsIt() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"realtime-budget\",\"budget_usd\":\"0.0000001\"}");
        LinkedBlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        CompletableFuture<Short> closed = new CompletableFuture<>();
        WebSocket socket = open(key.secret(), events, closed);
        next(events, "session.created");

        socket.writeTextMessage("{\"type\":\"response.create\"}");
        next(events, "response.done");

        assertThat(closed.get(8, TimeUnit.SECONDS)).isEqualTo((short) 1008);
    }

    @Test
    void aModelTakenOutOfTheAllowListRefusesTheNextResponseCreate() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"realtime-allow-list\",\"models\":[\"platform/vendorB-*\"]}");
        LinkedBlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        WebSocket socket = open(key.secret(), events, new CompletableFuture<>());
        next(events, "session.created");

        admin.patch(key.id(), "{\"models\":[\"platform/vendorA-*\"]}");
        socket.writeTextMessage("{\"type\":\"response.create\"}");

        JsonNode error = events.poll(5, TimeUnit.SECONDS);
        assertThat(error).isNotNull();
        assertThat(error.path("type").asText()).isEqualTo("error");
        assertThat(error.at("/error/code").asText()).isEqualTo("model_not_allowed");
    }

    @Test
    void eachResponseCreateIsCheckedSoASpentBudgetGetsAnErrorEventAndNoResponse() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"realtime-each-response\",\"budget_usd\":\"0.0000001\"}");
        LinkedBlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
        CompletableFuture<Short> closed = new CompletableFuture<>();
        WebSocket socket = open(key.secret(), events, closed);
        next(events, "session.created");
        socket.writeTextMessage("{\"type\":\"response.create\"}");
        next(events, "response.done");

        // at once, well within the periodic check's 2 s: each is refused by its own check
        for (int i = 0; i < 3; i++) socket.writeTextMessage("{\"type\":\"response.create\",\"event_id\":\"evt_" + i + "\"}");
        for (int i = 0; i < 3; i++) {
            JsonNode error = events.poll(5, TimeUnit.SECONDS);
            assertThat(error).as("the refusal of response.create %d", i).isNotNull();
            assertThat(error.path("type").asText()).isEqualTo("error");
            assertThat(error.at("/error/code").asText()).isEqualTo("insufficient_quota");
            assertThat(error.at("/error/event_id").asText()).isEqualTo("evt_" + i);
        }

        assertThat(closed.get(8, TimeUnit.SECONDS)).isEqualTo((short) 1008);
        assertThat(events).as("no response after the budget was spent")
                .noneMatch(e -> e.path("type").asText().startsWith("response."));
        assertThat(LedgerRows.read(h.databaseUrl, key.id())).as("the one response served").hasSize(1);
    }
}
