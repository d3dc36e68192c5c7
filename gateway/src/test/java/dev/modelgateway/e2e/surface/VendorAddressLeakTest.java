package dev.modelgateway.e2e.surface;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.upstream.TransportFailures;
import io.vertx.core.http.UpgradeRejectedException;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

import java.net.ServerSocket;
import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** A vendor that cannot be reached: the caller learns which vendor and what kind of failure, never its address. */
@E2e
@Isolated
class VendorAddressLeakTest {
    static final String CHAT = "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    static final String MESSAGES = "{\"model\":\"platform/vendorB-5.5\",\"max_tokens\":16,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    @Timeout(60)
    void aRefusedConnectionNamesTheVendorAndTheKindNotTheAddress() throws Exception {
        int port = closedPort();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Logger log = (Logger) LoggerFactory.getLogger(TransportFailures.class);
        log.addAppender(logged);
        try (GatewayHarness h = GatewayHarness.builder().baseUrl(Vendor.OPENAI, "http://127.0.0.1:" + port + "/openai/v1").start()) {
            for (String[] call : new String[][]{{"/api/v1/chat/completions", CHAT}, {"/api/v1/messages", MESSAGES}}) {
                HttpResponse<String> r = h.postAuthed(call[0], call[1]);
                String message = Json.parseOrNull(r.body()).at("/error/message").asText();
                assertThat(r.statusCode()).as(r.body()).isBetween(500, 599);
                assertThat(message).as(call[0]).contains("vendor '" + Vendor.OPENAI.id() + "'").contains("connection refused")
                        .doesNotContain("127.0.0.1").doesNotContain(String.valueOf(port)).doesNotContain("localhost");
            }
        } finally {
            log.detachAppender(logged);
        }
        // the detail is for the operator
        assertThat(logged.list).anySatisfy(e -> assertThat(e.getFormattedMessage()).contains(String.valueOf(port)));
        assertThat(logged.list).allSatisfy(e -> assertThat(e.getThrowableProxy()).isNull());
    }

    @Test
    @Timeout(60)
    void anUnresolvableHostIsNotEchoed() {
        try (GatewayHarness h = GatewayHarness.builder().baseUrl(Vendor.OPENAI, "http://vendor-b.internal.invalid:8443/openai/v1").start()) {
            HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", CHAT);
            String message = Json.parseOrNull(r.body()).at("/error/message").asText();
            assertThat(r.statusCode()).as(r.body()).isBetween(500, 599);
            assertThat(message).contains("vendor '" + Vendor.OPENAI.id() + "'")
                    .doesNotContain("internal.invalid").doesNotContain("8443");
        }
    }

    @Test
    @Timeout(60)
    void aRealtimeConnectionFailureDoesNotEchoTheAddress() throws Exception {
        int port = closedPort();
        try (GatewayHarness h = GatewayHarness.builder().baseUrl(Vendor.OPENAI, "http://127.0.0.1:" + port + "/openai/v1").start()) {
            WebSocketClient ws = h.vertx.createWebSocketClient();
            WebSocketConnectOptions options = new WebSocketConnectOptions().setHost("127.0.0.1").setPort(h.gateway.port())
                    .setURI("/api/v1/realtime?model=platform/vendorB-realtime")
                    .addHeader("authorization", "Bearer " + GatewayHarness.KEY);
            UpgradeRejectedException refused = null;
            try {
                ws.connect(options).await();
            } catch (UpgradeRejectedException e) {
                refused = e;
            }
            assertThat(refused).as("the upgrade was refused").isNotNull();
            String message = Json.parseOrNull(refused.getBody().toString()).at("/error/message").asText();
            assertThat(message).containsIgnoringCase("vendor '" + Vendor.OPENAI.id() + "'").contains("connection refused")
                    .doesNotContain("127.0.0.1").doesNotContain(String.valueOf(port));
        }
    }
}
