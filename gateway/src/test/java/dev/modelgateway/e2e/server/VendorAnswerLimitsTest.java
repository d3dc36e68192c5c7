package dev.modelgateway.e2e.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.ServerLimits;
import dev.modelgateway.config.VendorAnswerLimits;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The caps on vendors' answers are operator settings ({@code server.max_vendor_*}), here set small: the answer
 * size, the SSE event size, and the stream duration, which also bounds a binary (speech) answer.
 */
@E2e
@Isolated
class VendorAnswerLimitsTest {
    static GatewayHarness h;
    static final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    static final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    @BeforeAll
    static void start() {
        logged.start();
        root.addAppender(logged);
        h = GatewayHarness.builder()
                .limits(ServerLimits.DEFAULT.withVendorAnswers(new VendorAnswerLimits(400, 1, 16 * 1024)))
                .start();
    }

    @AfterAll
    static void stop() {
        root.detachAppender(logged);
        h.close();
    }

    @BeforeEach
    void forgetEarlierLines() {
        logged.list.clear();
    }

    /**
     * A limit the gateway enforces ends the upstream call with a reset of its own: no error for an operator to
     * chase (Vert.x logs "Stream reset" at ERROR when a reset stream's response has no exception handler). The
     * resets follow the caller's answer by a moment: the check waits until no upstream call is left.
     */
    @AfterEach
    void loggedNoError() {
        Eventually.until("every upstream call ended", () -> h.upstreamCalls() == 0);
        assertThat(List.copyOf(logged.list)).as("lines logged").noneMatch(e -> e.getLevel().isGreaterOrEqual(Level.ERROR));
    }

    static String speech(String input) {
        return "{\"model\":\"platform/vendorB-tts\",\"voice\":\"alloy\",\"response_format\":\"wav\",\"input\":\"" + input + "\"}";
    }

    /** The speech answer as the caller reads it: the bytes, or the failure that broke the transfer. */
    static HttpResponse<InputStream> speechCall(String input) throws Exception {
        HttpClient http1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        return http1.send(HttpRequest.newBuilder(URI.create(h.openAiBaseUrl() + "/audio/speech"))
                .timeout(Duration.ofSeconds(20)).header("authorization", "Bearer " + GatewayHarness.KEY)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(speech(input))).build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    @Test
    void speechLongerThanTheStreamCapIsCutOffVisibly() throws Exception {
        // four chunks 700 ms apart: past the 1 s cap the caller's transfer is broken off, not ended as if complete
        long t0 = System.nanoTime();
        HttpResponse<InputStream> resp = speechCall("Hello [[sim:chunk_delay_ms=700]]");
        assertThat(resp.statusCode()).isEqualTo(200);
        try (InputStream in = resp.body()) {
            assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class);
        }
        long tookMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(tookMs).as("not before the cap").isGreaterThanOrEqualTo(900L);
        List<Map<String, Object>> rows = h.ledger("platform/vendorB-tts", 1);
        assertThat(((Number) rows.getLast().get("status")).intValue()).isEqualTo(502);
    }

    @Test
    void speechTheVendorBreaksOffIsBrokenForTheCallerToo() throws Exception {
        // ending the caller's response normally would hand it a short file that looks complete
        HttpResponse<InputStream> resp = speechCall("Hello [[sim:disconnect_after=2]]");
        assertThat(resp.statusCode()).isEqualTo(200);
        try (InputStream in = resp.body()) {
            assertThatThrownBy(in::readAllBytes).isInstanceOf(IOException.class);
        }
    }

    @Test
    void speechWithinTheCapArrivesWhole() throws Exception {
        HttpResponse<InputStream> resp = speechCall("Hi");
        try (InputStream in = resp.body()) {
            byte[] audio = in.readAllBytes();
            assertThat(new String(audio, 0, 4)).isEqualTo("RIFF");
        }
    }

    @Test
    void sseStreamLongerThanTheCapEndsWithTheErrorEvent() {
        String body = "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"Hi [[sim:chunks=6;chunk_delay_ms=400]]\"}]}";
        var r = h.postAuthed("/api/v1/chat/completions", body);
        assertThat(r.statusCode()).isEqualTo(200);
        String last = r.body().lines().filter(l -> l.startsWith("data: {")).reduce((a, b) -> b).orElseThrow();
        JsonNode error = Json.parseOrNull(last.substring(6)).path("error");
        assertThat(error.path("code").asText()).isEqualTo("stream_too_long");
        assertThat(error.path("message").asText()).contains("limit of 1 s (server.max_vendor_stream_seconds)");
    }

    @Test
    void anAnswerLargerThanTheCapIsA502() {
        String body = "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"Hi [[sim:chunks=200]]\"}]}";
        var r = h.postAuthed("/api/v1/chat/completions", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(502);
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        // each attempt failed on the cap; the final error lists them
        assertThat(error.path("message").asText()).contains("limit of 400 bytes (server.max_vendor_answer_bytes)");
    }
}
