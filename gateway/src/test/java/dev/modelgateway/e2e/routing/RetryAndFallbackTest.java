package dev.modelgateway.e2e.routing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * platform_options end to end over raw HTTP, for both protocols, streaming and not: retries, backoff and
 * retry-after, fallbacks across vendors, the deadline, and the final error (docs/platform-options.md).
 * Each test puts a unique {@code id=} into its directive, so that the simulator's {@code times} counter and
 * the request log are its own.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class RetryAndFallbackTest {
    static GatewayHarness h;

    static String unique() {
        return "id=" + UUID.randomUUID().toString().substring(0, 8);
    }

    static String chat(String model, boolean stream, String directive, String options) {
        return "{\"model\":\"" + model + "\",\"stream\":" + stream + (options == null ? "" : ",\"platform_options\":" + options)
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:" + directive + "]] hi\"}]}";
    }

    static String messages(String model, boolean stream, String directive, String options) {
        return "{\"model\":\"" + model + "\",\"max_tokens\":200,\"stream\":" + stream
                + (options == null ? "" : ",\"platform_options\":" + options)
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:" + directive + "]] hi\"}]}";
    }

    static HttpResponse<String> postChat(String body) {
        return h.postAuthed("/api/v1/chat/completions", body);
    }

    static HttpResponse<String> postMessages(String body) {
        return h.postAuthed("/api/v1/messages", body);
    }

    static List<ReceivedRequest> upstream(String marker) {
        return h.sim.received().stream().filter(r -> r.body().contains(marker)).toList();
    }

    static String header(HttpResponse<String> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    @Test
    void rateLimitThenSuccessIsRetriedForBothProtocols() {
        String chatMark = unique();
        var chat = postChat(chat("platform/vendorB-5.5", false, "status=429;times=1;" + chatMark, null));
        assertThat(chat.statusCode()).isEqualTo(200);
        assertThat(header(chat, "x-platform-attempts")).isEqualTo("2");
        assertThat(header(chat, "x-platform-fallback")).isNull();
        assertThat(upstream(chatMark)).hasSize(2);

        String msgMark = unique();
        var msg = postMessages(messages("platform/vendorA-sonnet-4.5", true, "status=429;times=1;" + msgMark, null));
        assertThat(msg.statusCode()).isEqualTo(200);
        assertThat(msg.body()).contains("event: message_stop").doesNotContain("event: error");
        assertThat(header(msg, "x-platform-attempts")).isEqualTo("2");
        assertThat(upstream(msgMark)).hasSize(2);
    }

    @Test
    void twoServerErrorsThenSuccessWithThreeRetries() {
        String chatMark = unique();
        var chat = postChat(chat("platform/vendorB-5.5", true, "status=500;times=2;" + chatMark, "{\"max_retries\":3}"));
        assertThat(chat.statusCode()).isEqualTo(200);
        assertThat(chat.body()).contains("\"content\":\" vendorB-5.5.\"").contains("[DONE]");
        assertThat(header(chat, "x-platform-attempts")).isEqualTo("3");
        assertThat(upstream(chatMark)).hasSize(3);

        String msgMark = unique();
        var msg = postMessages(messages("platform/vendorA-sonnet-4.5", false, "status=529;times=2;" + msgMark, "{\"max_retries\":3}"));
        assertThat(msg.statusCode()).isEqualTo(200);
        assertThat(Json.parseOrNull(msg.body()).at("/content/0/text").asText()).contains("Hello from vendorA-sonnet-4.5");
        assertThat(header(msg, "x-platform-attempts")).isEqualTo("3");
        assertThat(upstream(msgMark)).hasSize(3);
    }

    @Test
    void badRequestIsNeitherRetriedNorFallenBack() {
        String chatMark = unique();
        var chat = postChat(chat("platform/vendorB-5.5", false, "status=400;" + chatMark,
                "{\"max_retries\":3,\"fallbacks\":[\"platform/vendorB-5.4\"]}"));
        assertThat(chat.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(chat.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(header(chat, "x-platform-attempts")).isEqualTo("1");
        assertThat(upstream(chatMark)).hasSize(1);

        String msgMark = unique();
        var msg = postMessages(messages("platform/vendorA-sonnet-4.5", true, "status=400;" + msgMark, "{\"max_retries\":3}"));
        assertThat(msg.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(msg.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(upstream(msgMark)).hasSize(1);
    }

    @Test
    void exhaustedRetriesFallBackToTheNextModel() {
        String chatMark = unique();
        var chat = postChat(chat("platform/vendorB-5.5", false, "status=500;times=2;" + chatMark,
                "{\"max_retries\":1,\"fallbacks\":[\"platform/vendorB-5.4\"]}"));
        assertThat(chat.statusCode()).isEqualTo(200);
        assertThat(Json.parseOrNull(chat.body()).path("model").asText()).isEqualTo("vendorB-5.4");
        assertThat(header(chat, "x-platform-model")).isEqualTo("platform/vendorB-5.4");
        assertThat(header(chat, "x-platform-fallback")).isEqualTo("1");
        assertThat(header(chat, "x-platform-attempts")).isEqualTo("3");
        assertThat(upstream(chatMark)).extracting(r -> Json.parseOrNull(r.body()).path("model").asText())
                .containsExactly("vendorB-5.5", "vendorB-5.5", "vendorB-5.4");

        String msgMark = unique();
        var msg = postMessages(messages("platform/vendorA-sonnet-4.5", true, "status=503;times=2;" + msgMark,
                "{\"max_retries\":1,\"fallbacks\":[\"platform/vendorA-sonnet-4.7\"]}"));
        assertThat(msg.statusCode()).as(msg.body()).isEqualTo(200);
        assertThat(msg.body()).contains("\"text\":\" vendorA-sonnet-4.7.\"").contains("event: message_stop");
        assertThat(header(msg, "x-platform-fallback")).isEqualTo("1");
        assertThat(upstream(msgMark)).hasSize(3);
    }

    @Test
    void chatRateLimitSwitchesToAnotherVendorAnsweringInChatShape() {
        String mark = unique();
        var r = postChat(chat("platform/vendorB-5.5", true, "status=429;times=2;" + mark,
                "{\"max_retries\":1,\"fallbacks\":[\"vendorA-sonnet-5\"]}"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("chat.completion.chunk").contains("\"content\":\" vendorA-sonnet-5.\"").contains("[DONE]");
        assertThat(header(r, "x-platform-model")).isEqualTo("vendorA-sonnet-5");
        assertThat(upstream(mark).getLast().path()).contains("/anthropic/v1/messages");
    }

    @Test
    void messagesFallBackToVendorBAnsweringInMessagesShape() {
        String mark = unique();
        var r = postMessages(messages("platform/vendorA-sonnet-4.5", false, "status=500;times=2;" + mark,
                "{\"max_retries\":1,\"fallbacks\":[\"platform/vendorB-5.5\"]}"));
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode m = Json.parseOrNull(r.body());
        assertThat(m.path("type").asText()).isEqualTo("message");
        assertThat(m.path("model").asText()).isEqualTo("platform/vendorB-5.5");
        assertThat(m.at("/content/0/text").asText()).startsWith("Hello from vendorB-5.5");
        assertThat(upstream(mark).getLast().path()).contains("/openai/v1/chat/completions");
    }

    @Test
    void allAttemptsFailingGiveOneErrorListingThem() {
        String chatMark = unique();
        var chat = postChat(chat("platform/vendorB-5.5", false, "status=500;" + chatMark,
                "{\"max_retries\":1,\"fallbacks\":[\"platform/vendorB-5.4\"]}"));
        assertThat(chat.statusCode()).isEqualTo(502);
        JsonNode error = Json.parseOrNull(chat.body()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("server_error");
        assertThat(error.path("message").asText()).contains("after 4 attempts")
                .contains("1. platform/vendorB-5.5 → 500").contains("4. platform/vendorB-5.4 → 500");
        assertThat(header(chat, "x-platform-attempts")).isEqualTo("4");
        assertThat(upstream(chatMark)).hasSize(4);

        String msgMark = unique();
        var msg = postMessages(messages("platform/vendorA-sonnet-4.5", true, "status=429;retry_after_ms=20;" + msgMark, null));
        assertThat(msg.statusCode()).isEqualTo(429);
        assertThat(header(msg, "retry-after-ms")).isEqualTo("20");
        JsonNode body = Json.parseOrNull(msg.body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(body.at("/error/message").asText()).contains("after 2 attempts").contains("→ 429");
    }

    @Test
    void timeoutShorterThanTheVendorsDelayEndsInTimeAndClosesTheUpstreamCall() {
        for (boolean stream : new boolean[]{false, true}) {
            String chatMark = unique();
            long t0 = System.nanoTime();
            var chat = postChat(chat("platform/vendorB-5.5", stream, "delay_ms=4000;" + chatMark, "{\"timeout\":0.5}"));
            long chatMs = (System.nanoTime() - t0) / 1_000_000;
            assertThat(chat.statusCode()).isEqualTo(504);
            assertThat(chatMs).isBetween(450L, 1_500L);
            assertThat(Json.parseOrNull(chat.body()).at("/error/message").asText()).contains("deadline");

            String msgMark = unique();
            t0 = System.nanoTime();
            var msg = postMessages(messages("platform/vendorA-sonnet-4.5", stream, "delay_ms=4000;" + msgMark, "{\"timeout\":0.5}"));
            long msgMs = (System.nanoTime() - t0) / 1_000_000;
            assertThat(msg.statusCode()).isEqualTo(504);
            assertThat(msgMs).isBetween(450L, 1_500L);
            assertThat(Json.parseOrNull(msg.body()).at("/error/type").asText()).isEqualTo("timeout_error");

            for (String mark : List.of(chatMark, msgMark)) {
                var closed = h.sim.awaitReceived(log -> log.stream().anyMatch(r -> r.body().contains(mark) && r.clientClosedEarly()),
                        2_000).await();
                assertThat(closed).anyMatch(r -> r.body().contains(mark) && r.clientClosedEarly());
            }
        }
    }

    @Test
    void timeoutAlsoBoundsSilenceBetweenStreamEvents() {
        String mark = unique();
        long t0 = System.nanoTime();
        var msg = postMessages(messages("platform/vendorA-sonnet-4.5", true, "chunks=5;chunk_delay_ms=3000;" + mark, "{\"timeout\":0.5}"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(msg.statusCode()).isEqualTo(200);
        assertThat(ms).isLessThan(1_500L);
        assertThat(msg.body()).contains("event: message_start").contains("event: error").doesNotContain("message_stop");
        assertThat(upstream(mark)).hasSize(1);
    }

    @Test
    void upstreamDisconnectAfterOutputEndsWithAnErrorEventAndIsNotRetried() {
        String chatMark = unique();
        var chat = postChat(chat("platform/vendorB-5.5", true, "chunks=6;disconnect_after=3;" + chatMark,
                "{\"max_retries\":3,\"fallbacks\":[\"platform/vendorB-5.4\"]}"));
        assertThat(chat.statusCode()).isEqualTo(200);
        assertThat(chat.body()).contains("\"content\":\"lorem").doesNotContain("[DONE]");
        assertThat(chat.body().strip().lines().reduce((a, b) -> b).orElseThrow()).startsWith("data: {\"error\"");
        assertThat(upstream(chatMark)).hasSize(1);

        String msgMark = unique();
        var msg = postMessages(messages("platform/vendorA-sonnet-4.5", true, "chunks=6;disconnect_after=4;" + msgMark,
                "{\"max_retries\":3}"));
        assertThat(msg.body()).contains("text_delta").contains("event: error").doesNotContain("message_stop");
        assertThat(upstream(msgMark)).hasSize(1);
    }

    @Test
    void errorEventBeforeAnyOutputIsRetried() {
        String mark = unique();
        var msg = postMessages(messages("platform/vendorA-sonnet-4.5", true, "error_after=0;times=1;" + mark, null));
        assertThat(msg.statusCode()).isEqualTo(200);
        assertThat(msg.body()).contains("event: message_stop").doesNotContain("event: error");
        assertThat(header(msg, "x-platform-attempts")).isEqualTo("2");
    }

    @Test
    void callerHangingUpCancelsTheUpstreamCallAndNothingIsRetried() throws Exception {
        h.awaitLedgerWritten();
        int chatRows = h.ledger("platform/vendorB-5.5", 0).size();
        int msgRows = h.ledger("platform/vendorA-sonnet-4.5", 0).size();
        String chatMark = unique();
        hangUpAfter("/api/v1/chat/completions", chat("platform/vendorB-5.5", false, "delay_ms=3000;" + chatMark, "{\"max_retries\":3}"), chatMark);
        String msgMark = unique();
        hangUpAfter("/api/v1/messages", messages("platform/vendorA-sonnet-4.5", true, "delay_ms=3000;" + msgMark, "{\"max_retries\":3}"), msgMark);
        for (String mark : List.of(chatMark, msgMark)) {
            var seen = h.sim.awaitReceived(log -> log.stream().anyMatch(r -> r.body().contains(mark) && r.clientClosedEarly()),
                    2_000).await();
            assertThat(seen).anyMatch(r -> r.body().contains(mark) && r.clientClosedEarly());
        }
        // a call's row is written where its plan ends: a retry, if any, was sent before it
        h.ledger("platform/vendorB-5.5", chatRows + 1);
        h.ledger("platform/vendorA-sonnet-4.5", msgRows + 1);
        assertThat(upstream(chatMark)).hasSize(1);
        assertThat(upstream(msgMark)).hasSize(1);
    }

    /** Sends the request and hangs up once the vendor has it (the request carries {@code mark}). */
    private static void hangUpAfter(String path, String body, String mark) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", h.gateway.port())) {
            OutputStream out = socket.getOutputStream();
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + GatewayHarness.KEY
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(bytes);
            out.flush();
            h.sim.awaitReceived(log -> log.stream().anyMatch(r -> r.body().contains(mark)), 5_000).await();
        }
    }

    @Test
    void retryAfterIsHonoured() {
        String chatMark = unique();
        long t0 = System.nanoTime();
        var chat = postChat(chat("platform/vendorB-5.5", false, "status=429;times=1;retry_after_ms=300;" + chatMark, null));
        long chatMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(chat.statusCode()).isEqualTo(200);
        assertThat(chatMs).isBetween(300L, 1_500L);

        String msgMark = unique();
        t0 = System.nanoTime();
        var msg = postMessages(messages("platform/vendorA-sonnet-4.5", true, "status=529;times=1;retry_after=1;" + msgMark, null));
        long msgMs = (System.nanoTime() - t0) / 1_000_000;
        assertThat(msg.statusCode()).isEqualTo(200);
        assertThat(msgMs).isBetween(1_000L, 2_500L);
    }

    @Test
    void retryAfterBeyondTheDeadlineMovesOnToTheFallbackAtOnce() {
        String mark = unique();
        long t0 = System.nanoTime();
        var r = postChat(chat("platform/vendorB-5.5", false, "status=429;times=1;retry_after=30;" + mark,
                "{\"timeout\":5,\"fallbacks\":[\"platform/vendorB-5.4\"]}"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(ms).isLessThan(1_000L);
        assertThat(header(r, "x-platform-model")).isEqualTo("platform/vendorB-5.4");
        assertThat(header(r, "x-platform-attempts")).isEqualTo("2");
    }
}
