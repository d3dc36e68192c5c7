package dev.modelgateway.e2e.surface;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hostile request bodies over raw HTTP: each gets a quick 400 in the caller's shape naming the problem,
 * and none leaves an ERROR with a stack trace in the log.
 */
@E2e
@Isolated
class HostileInputTest {
    static GatewayHarness h;
    final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    @BeforeAll
    static void start() {
        h = GatewayHarness.start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @BeforeEach
    void capture() {
        logged.start();
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).addAppender(logged);
    }

    @AfterEach
    void release() {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(logged);
    }

    /** Nothing at ERROR, and no stack trace at any level. */
    void assertNoStackTraceLogged() {
        List<ILoggingEvent> bad = logged.list.stream()
                .filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR) || e.getThrowableProxy() != null).toList();
        assertThat(bad).as("log events with a stack trace or at ERROR").isEmpty();
    }

    static String chat(String extra) {
        return "{\"model\":\"platform/vendorA-sonnet-4.5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]" + extra + "}";
    }

    static String messages(String extra) {
        return "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]" + extra + "}";
    }

    static JsonNode json(HttpResponse<String> r) {
        return Json.parseOrNull(r.body());
    }

    @Test
    @Timeout(15)
    void controlCharactersInAnUnknownFieldNameGetAQuickAnswer() {
        for (String name : new String[]{"x\\r\\ny", "x\\u0000y", "x\\ny"}) {
            // translated (chat → vendor A) and native (chat → vendor B): the unknown field is dropped with a
            // warning header on the first, passed through on the second
            for (String model : new String[]{"platform/vendorA-sonnet-4.5", "platform/vendorB-5.5"}) {
                String body = "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"" + name + "\":1}";
                long t0 = System.nanoTime();
                HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", body);
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
                assertThat(r.statusCode()).as(model + " " + name + ": " + r.body()).isEqualTo(400);
                assertThat(json(r).at("/error/type").asText()).isEqualTo("invalid_request_error");
                assertThat(json(r).at("/error/message").asText()).contains("field name").contains("control character");
                r.headers().map().forEach((k, v) -> v.forEach(x -> assertThat(x).doesNotContain("\r", "\n")));
            }
        }
        assertNoStackTraceLogged();
    }

    @Test
    void deepNestingIsA400NamingTheDepthLimit() {
        String deep = "[".repeat(5000) + "]".repeat(5000);
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", chat(",\"metadata\":" + deep));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json(r).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(json(r).at("/error/message").asText()).contains("nesting depth");
        assertNoStackTraceLogged();
    }

    @Test
    void aTwoThousandDigitNumberIsA400InTheAnthropicShape() {
        HttpResponse<String> r = h.postAuthed("/api/v1/messages", messages(",\"temperature\":" + "1".repeat(2000)));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json(r).path("type").asText()).isEqualTo("error");
        assertThat(json(r).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(json(r).at("/error/message").asText()).contains("Number value length");
        assertNoStackTraceLogged();
    }

    @Test
    void aHugeFieldNameIsA400() {
        HttpResponse<String> r = h.postAuthed("/api/v1/responses",
                "{\"model\":\"platform/vendorB-5.5\",\"input\":\"hi\",\"" + "n".repeat(100_000) + "\":1}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json(r).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(json(r).at("/error/message").asText()).contains("Name length");
        assertNoStackTraceLogged();
    }

    @Test
    @Timeout(15)
    void aMalformedChunkSizeIsA400() throws Exception {
        try (Socket s = new Socket("127.0.0.1", h.gateway.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + GatewayHarness.KEY
                    + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\n{\"a\":\r\nzz-not-hex\r\n1}\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String answer = readHead(s.getInputStream());
            assertThat(answer).startsWith("HTTP/1.1 400");
        }
        assertNoStackTraceLogged();
    }

    static String readHead(InputStream in) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            buf.write(c);
            if (buf.toString(StandardCharsets.ISO_8859_1).contains("\r\n\r\n")) break;
        }
        return buf.toString(StandardCharsets.ISO_8859_1);
    }
}
