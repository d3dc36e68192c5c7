package dev.modelgateway.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * What the simulator itself reports as usage for a request the gateway sent: the request is sent again,
 * unchanged, straight to the simulator (which is deterministic), and the vendor's own usage fields are read
 * independently of the gateway's code. Replaying changes prompt-cache state, so callers replay a request
 * whose cache prefixes were already seen.
 *
 * @param prompt all input tokens, cached or not
 */
public record SimUsage(long prompt, long cacheRead, long cacheWrite, long output) {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Set<String> HOP_HEADERS = Set.of("host", "content-length", "connection", "transfer-encoding",
            "upgrade", "http2-settings", "accept-encoding");

    public long uncachedInput() {
        return prompt - cacheRead - cacheWrite;
    }

    public static SimUsage replay(GatewayHarness h, ReceivedRequest r) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(h.sim.baseUrl() + r.path()))
                .timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(r.body()));
        r.headers().forEach((k, v) -> {
            if (!HOP_HEADERS.contains(k)) b.header(k, v);
        });
        String body;
        try {
            HttpResponse<String> resp = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            if (resp.statusCode() != 200) throw new AssertionError("replay got HTTP " + resp.statusCode() + ": " + resp.body());
            body = resp.body();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        boolean sse = body.stripLeading().startsWith("data:") || body.stripLeading().startsWith("event:");
        return switch (r.vendor()) {
            case "anthropic" -> sse ? anthropicStream(body) : anthropic(Json.parseOrNull(body).path("usage"), null);
            case "gemini" -> gemini(sse ? lastWith(body, "usageMetadata") : Json.parseOrNull(body));
            default -> chat(sse ? lastWith(body, "usage") : Json.parseOrNull(body));
        };
    }

    private static SimUsage anthropic(JsonNode u, JsonNode later) {
        JsonNode read = pick(later, u, "cache_read_input_tokens");
        JsonNode write = pick(later, u, "cache_creation_input_tokens");
        JsonNode input = pick(later, u, "input_tokens");
        return new SimUsage(input.asLong() + read.asLong() + write.asLong(), read.asLong(), write.asLong(),
                pick(later, u, "output_tokens").asLong());
    }

    private static JsonNode pick(JsonNode later, JsonNode first, String field) {
        return later != null && later.hasNonNull(field) ? later.get(field) : first.path(field);
    }

    private static SimUsage anthropicStream(String body) {
        JsonNode start = null;
        JsonNode delta = null;
        for (JsonNode event : events(body)) {
            if (event.path("type").asText().equals("message_start")) start = event.path("message").path("usage");
            if (event.path("type").asText().equals("message_delta")) delta = event.path("usage");
        }
        return anthropic(start, delta);
    }

    private static SimUsage chat(JsonNode body) {
        JsonNode u = body.path("usage");
        JsonNode details = u.path("prompt_tokens_details");
        return new SimUsage(u.path("prompt_tokens").asLong(), details.path("cached_tokens").asLong(),
                details.path("cache_creation_input_tokens").asLong(u.path("cache_creation_input_tokens").asLong()),
                u.path("completion_tokens").asLong());
    }

    private static SimUsage gemini(JsonNode body) {
        JsonNode u = body.path("usageMetadata");
        return new SimUsage(u.path("promptTokenCount").asLong(), u.path("cachedContentTokenCount").asLong(), 0,
                u.path("candidatesTokenCount").asLong() + u.path("thoughtsTokenCount").asLong());
    }

    private static JsonNode lastWith(String body, String field) {
        JsonNode last = null;
        for (JsonNode event : events(body)) if (event.hasNonNull(field) && !event.get(field).isNull()) last = event;
        if (last == null) throw new AssertionError("no " + field + " in the replayed stream:\n" + body);
        return last;
    }

    private static List<JsonNode> events(String body) {
        return body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring(5).trim())
                .filter(d -> !d.equals("[DONE]")).map(Json::parseOrNull).filter(n -> n != null).toList();
    }
}
