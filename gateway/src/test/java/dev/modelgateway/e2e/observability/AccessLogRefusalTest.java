package dev.modelgateway.e2e.observability;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.observability.ObservabilityConfig;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A refused request's access line says who was refused and why (docs/observability.md, "Access log"): the client's
 * address and the error's code, as JSON and as text; an answered one carries neither.
 */
@E2e
@Isolated
class AccessLogRefusalTest {
    static GatewayHarness h;
    static final ListAppender<ILoggingEvent> access = new ListAppender<>();

    @BeforeAll
    static void start() {
        access.start();
        ((Logger) LoggerFactory.getLogger("access")).addAppender(access);
        h = GatewayHarness.builder().observability(ObservabilityConfig.DEFAULT.withAccessLogJson(true)).start();
    }

    @AfterAll
    static void stop() {
        ((Logger) LoggerFactory.getLogger("access")).detachAppender(access);
        if (h != null) h.close();
    }

    @Test
    void aRefusalsLineNamesTheClientAndTheErrorCode() {
        HttpResponse<String> refused = h.post("/api/v1/chat/completions", "{}", "authorization", "Bearer pk-unknown-key-000000000000");
        assertThat(refused.statusCode()).isEqualTo(401);
        HttpResponse<String> invalid = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\"}");
        assertThat(invalid.statusCode()).isEqualTo(400);
        assertThat(h.get("/health").statusCode()).isEqualTo(200);

        JsonNode unauthorized = line("/api/v1/chat/completions", 401);
        assertThat(unauthorized.path("client_address").asText()).isEqualTo("127.0.0.1");
        assertThat(unauthorized.path("error_code").asText()).isNotEmpty();
        assertThat(Json.parseOrNull(refused.body()).path("error").path("code").asText())
                .isEqualTo(unauthorized.path("error_code").asText());
        JsonNode badRequest = line("/api/v1/chat/completions", 400);
        assertThat(badRequest.path("client_address").asText()).isEqualTo("127.0.0.1");
        assertThat(badRequest.path("error_code").asText()).isNotEmpty();
        JsonNode ok = line("/health", 200);
        assertThat(ok.has("client_address")).isFalse();
        assertThat(ok.has("error_code")).isFalse();
    }

    private static JsonNode line(String path, int status) {
        return Eventually.value("the access line of " + path + " " + status, () -> {
            List<JsonNode> lines;
            synchronized (access) {
                lines = access.list.stream().map(e -> Json.parseOrNull(e.getFormattedMessage())).toList();
            }
            return lines.stream().filter(l -> l.path("path").asText().equals(path) && l.path("status").asInt() == status)
                    .findFirst().orElse(null);
        }, l -> l != null);
    }
}
