package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class FaultInjectionTest extends SimTestBase {

    /** Sends a raw HTTP/1.1 request and reads until the server closes (or the response is complete). */
    static String rawExchange(String path, String body, String... headers) throws Exception {
        try (Socket s = new Socket("127.0.0.1", sim.port())) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            StringBuilder req = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\ncontent-type: application/json\r\n");
            for (int i = 0; i < headers.length; i += 2) req.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            req.append("content-length: ").append(b.length).append("\r\n\r\n");
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            out.write(b);
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.UTF_8);
        }
    }

    static String openaiBody(String text, boolean stream) {
        return "{\"model\":\"gpt-x\",\"stream\":" + stream + ",\"messages\":" + userMessages(text) + "}";
    }

    @Test
    void statusWithRetryHeadersPerVendor() {
        HttpResponse<String> a = anthropic("{\"model\":\"m\",\"max_tokens\":5,\"messages\":" + userMessages("[[sim:status=529;retry_after=3]]") + "}");
        assertThat(a.statusCode()).isEqualTo(529);
        assertThat(a.headers().firstValue("retry-after")).contains("3");
        assertThat(json(a.body()).path("error").path("type").asText()).isEqualTo("overloaded_error");
        HttpResponse<String> a429 = anthropic("{\"model\":\"m\",\"max_tokens\":5,\"messages\":" + userMessages("[[sim:status=429]]") + "}");
        assertThat(json(a429.body()).path("error").path("type").asText()).isEqualTo("rate_limit_error");
        HttpResponse<String> o = openai(openaiBody("[[sim:status=500;retry_after_ms=250]]", false));
        assertThat(o.statusCode()).isEqualTo(500);
        assertThat(o.headers().firstValue("retry-after-ms")).contains("250");
        assertThat(json(o.body()).path("error").path("type").asText()).isEqualTo("server_error");
        HttpResponse<String> g = gemini("g", "generateContent", "{\"contents\":[{\"parts\":[{\"text\":\"[[sim:status=503]]\"}]}]}");
        assertThat(json(g.body()).path("error").path("status").asText()).isEqualTo("UNAVAILABLE");
    }

    @Test
    void timesLimitsTheFaultToTheFirstRequests() {
        String body = openaiBody("retry me [[sim:status=503;times=2]]", false);
        assertThat(openai(body).statusCode()).isEqualTo(503);
        assertThat(openai(body).statusCode()).isEqualTo(503);
        assertThat(openai(body).statusCode()).isEqualTo(200);
        assertThat(openai(body).statusCode()).isEqualTo(200);
        // another directive text has its own counter
        assertThat(openai(openaiBody("other [[sim:status=503;times=1]]", false)).statusCode()).isEqualTo(503);
    }

    @Test
    void delayAndClientClosedEarly() throws Exception {
        long t0 = System.nanoTime();
        assertThat(openai(openaiBody("[[sim:delay_ms=300]]", false)).statusCode()).isEqualTo(200);
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(290);

        sim.clearReceived();
        String body = openaiBody("slow [[sim:delay_ms=3000]]", false);
        try (Socket s = new Socket("127.0.0.1", sim.port())) {
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            s.getOutputStream().write(("POST /openai/v1/chat/completions HTTP/1.1\r\nHost: x\r\nauthorization: Bearer sim-openai-key\r\n"
                    + "content-type: application/json\r\ncontent-length: " + b.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().write(b);
            s.getOutputStream().flush();
            sim.awaitReceived(l -> l.size() == 1, 3000).toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        }
        List<ReceivedRequest> log = sim.awaitReceived(l -> l.getFirst().clientClosedEarly(), 3000)
                .toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(log.getFirst().clientClosedEarly()).isTrue();
    }

    @Test
    void clientClosingMidStreamIsRecorded() throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/anthropic/v1/messages"))
                .header("x-api-key", "sim-anthropic-key").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"m\",\"max_tokens\":500,\"stream\":true,\"messages\":" + userMessages("[[sim:chunk_delay_ms=200;chunks=50]]") + "}"))
                .build();
        HttpResponse<InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = r.body()) {
            in.read(new byte[64]);
        }
        List<ReceivedRequest> log = sim.awaitReceived(l -> !l.isEmpty() && l.getFirst().clientClosedEarly(), 4000)
                .toCompletionStage().toCompletableFuture().get(6, TimeUnit.SECONDS);
        assertThat(log.getFirst().clientClosedEarly()).isTrue();

        sim.clearReceived();
        anthropic("{\"model\":\"m\",\"max_tokens\":5,\"messages\":" + userMessages("fine") + "}");
        assertThat(sim.received().getFirst().clientClosedEarly()).isFalse();
    }

    @Test
    void chunkDelayPacesEvents() {
        long t0 = System.nanoTime();
        List<Sse> ev = sse(openai(openaiBody("[[sim:chunk_delay_ms=30;chunks=5]]", true)).body());
        assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(5 * 30);
        assertThat(ev).hasSize(1 + 5 + 1 + 1);
    }

    @Test
    void chunksControlsDeltaCount() {
        List<Sse> ev = sse(anthropic("{\"model\":\"m\",\"max_tokens\":5000,\"stream\":true,\"messages\":" + userMessages("[[sim:chunks=100]]") + "}").body());
        assertThat(ev.stream().filter(e -> "content_block_delta".equals(e.event())).count()).isEqualTo(100);
        List<Sse> g = sse(gemini("g", "streamGenerateContent", "{\"contents\":[{\"parts\":[{\"text\":\"[[sim:chunks=7]]\"}]}]}").body());
        assertThat(g).hasSize(7);
    }

    @Test
    void disconnectAfterStreamingAndNonStreaming() throws Exception {
        String raw = rawExchange("/openai/v1/chat/completions", openaiBody("[[sim:disconnect_after=2]]", true),
                "authorization", "Bearer sim-openai-key");
        assertThat(raw).startsWith("HTTP/1.1 200");
        assertThat(raw).doesNotContain("[DONE]").doesNotContain("finish_reason\":\"stop");
        assertThat(raw.split("data: ", -1).length - 1).isEqualTo(2);
        assertThat(raw).doesNotEndWith("0\r\n\r\n");

        String none = rawExchange("/openai/v1/chat/completions", openaiBody("[[sim:disconnect_after=0]]", false),
                "authorization", "Bearer sim-openai-key");
        assertThat(none).isEmpty();
        assertThat(sim.received()).allSatisfy(r -> assertThat(r.clientClosedEarly()).isFalse());

        String anth = rawExchange("/anthropic/v1/messages", "{\"model\":\"m\",\"max_tokens\":50,\"stream\":true,\"messages\":"
                + userMessages("[[sim:disconnect_after=3]]") + "}", "x-api-key", "sim-anthropic-key");
        assertThat(anth).contains("event: ping").doesNotContain("message_stop");
    }

    @Test
    void errorAfterEmitsVendorMidStreamError() {
        List<Sse> a = sse(anthropic("{\"model\":\"m\",\"max_tokens\":50,\"stream\":true,\"messages\":" + userMessages("[[sim:error_after=3]]") + "}").body());
        assertThat(a).hasSize(4);
        assertThat(a.getLast().event()).isEqualTo("error");
        assertThat(a.getLast().json().path("error").path("type").asText()).isEqualTo("overloaded_error");

        List<Sse> o = sse(openai(openaiBody("[[sim:error_after=2]]", true)).body());
        assertThat(o).hasSize(3);
        assertThat(o.getLast().json().path("error").path("type").asText()).isEqualTo("server_error");

        List<Sse> d = sse(dashscope("{\"model\":\"q\",\"stream\":true,\"messages\":" + userMessages("[[sim:error_after=1]]") + "}").body());
        assertThat(d.getLast().json().path("error").path("code").asText()).isEqualTo("data_inspection_failed");

        List<Sse> g = sse(gemini("g", "streamGenerateContent", "{\"contents\":[{\"parts\":[{\"text\":\"[[sim:error_after=1]]\"}]}]}").body());
        assertThat(g).hasSize(2);
        assertThat(g.getLast().json().path("error").path("status").asText()).isEqualTo("UNAVAILABLE");
    }

    @Test
    void malformedBodiesAndEvents() {
        HttpResponse<String> r = openai(openaiBody("[[sim:malformed]]", false));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).doesNotStartWith("{\"id\":\"x").satisfies(b -> {
            try {
                Json.MAPPER.readTree(b);
                throw new AssertionError("expected invalid JSON");
            } catch (Exception expected) {
                // ok
            }
        });
        List<Sse> ev = sse(openai(openaiBody("[[sim:malformed]]", true)).body());
        long bad = ev.stream().filter(e -> !e.data().equals("[DONE]")).filter(e -> {
            try {
                Json.MAPPER.readTree(e.data());
                return false;
            } catch (Exception ex) {
                return true;
            }
        }).count();
        assertThat(bad).isEqualTo(1);
    }

    @Test
    void queuedFaultsAndControlEndpoints() throws Exception {
        HttpResponse<String> q = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/_sim/faults"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"vendor\":\"openai\",\"fault\":\"status=500;times=2\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(q.statusCode()).isEqualTo(204);
        assertThat(anthropic("{\"model\":\"m\",\"max_tokens\":5,\"messages\":" + userMessages("x") + "}").statusCode()).isEqualTo(200);
        assertThat(openai(openaiBody("x", false)).statusCode()).isEqualTo(500);
        assertThat(openai(openaiBody("x", false)).statusCode()).isEqualTo(500);
        assertThat(openai(openaiBody("x", false)).statusCode()).isEqualTo(200);

        HttpResponse<String> log = http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/_sim/requests")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode arr = json(log.body());
        assertThat(arr).hasSize(4);
        assertThat(arr.get(1).path("vendor").asText()).isEqualTo("openai");
        assertThat(arr.get(1).path("path").asText()).isEqualTo("/openai/v1/chat/completions");
        assertThat(arr.get(1).path("headers").path("authorization").asText()).isEqualTo("Bearer sim-openai-key");
        assertThat(arr.get(1).path("body").asText()).contains("gpt-x");
        assertThat(arr.get(1).path("clientClosedEarly").asBoolean()).isFalse();

        http.send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + "/_sim/requests")).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(sim.received()).isEmpty();
    }
}
