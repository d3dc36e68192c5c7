package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.modelgateway.wire.Fixtures;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A local HTTP server the official clients are pointed at: it records each request (path with query, headers, JSON
 * body) and answers a minimal valid body of the kind the path asks for, so that the client completes its call.
 */
final class CapturingServer implements AutoCloseable {
    record Captured(String method, String path, Map<String, String> headers, JsonNode body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private static final String ANTHROPIC_MESSAGE = """
            {"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"ok"}],
             "stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}""";
    private static final String ANTHROPIC_STREAM = """
            event: message_start
            data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":1}}

            event: message_stop
            data: {"type":"message_stop"}

            """;
    private static final String GEMINI_ANSWER = """
            {"candidates":[{"content":{"role":"model","parts":[{"text":"ok"}]},"finishReason":"STOP","index":0}],
             "usageMetadata":{"promptTokenCount":1,"candidatesTokenCount":1,"totalTokenCount":2}}""";

    private final HttpServer server;
    private final List<Captured> captured = new CopyOnWriteArrayList<>();

    CapturingServer() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::handle);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The one request captured since the last call, which the test expects. */
    Captured take() {
        if (captured.size() != 1) throw new AssertionError("expected one request, got " + captured);
        return captured.removeFirst();
    }

    private void handle(HttpExchange ex) throws IOException {
        byte[] in = ex.getRequestBody().readAllBytes();
        Map<String, String> headers = new TreeMap<>();
        ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(", ", v)));
        String path = ex.getRequestURI().getRawPath() + (ex.getRequestURI().getRawQuery() == null ? "" : "?" + ex.getRequestURI().getRawQuery());
        JsonNode body = in.length == 0 ? null : Fixtures.JSON.readTree(in);
        captured.add(new Captured(ex.getRequestMethod(), path, headers, body));
        boolean sse = path.contains("alt=sse") || path.contains(":streamRawPredict") || (body != null && body.path("stream").asBoolean(false));
        String answer;
        if (path.contains("count-tokens") || path.endsWith("/count_tokens") || path.contains("count_tokens?")) answer = "{\"input_tokens\":7}";
        else if (path.contains(":countTokens")) answer = "{\"totalTokens\":7}";
        else if (path.contains(":predict")) answer = "{\"predictions\":[{\"embeddings\":{\"values\":[0.5,0.5],\"statistics\":{\"token_count\":3,\"truncated\":false}}}]}";
        else if (path.contains("Generate") || path.contains("generate")) answer = sse ? "data: " + GEMINI_ANSWER.replace("\n", "") + "\r\n\r\n" : GEMINI_ANSWER;
        else answer = sse ? ANTHROPIC_STREAM : ANTHROPIC_MESSAGE;
        byte[] out = answer.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("content-type", sse ? "text/event-stream" : "application/json");
        ex.sendResponseHeaders(200, out.length);
        ex.getResponseBody().write(out);
        ex.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
