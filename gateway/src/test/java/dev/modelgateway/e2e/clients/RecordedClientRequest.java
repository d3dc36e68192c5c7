package dev.modelgateway.e2e.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.sse.SseParser;
import dev.modelgateway.wire.Fixtures;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One request a CLI sent, as {@code compat/run.mjs --record} wrote it: method, path, headers, body. */
record RecordedClientRequest(String path, Map<String, String> headers, JsonNode body) {

    static RecordedClientRequest load(String rel) {
        JsonNode f = Fixtures.json("clients/" + rel);
        Map<String, String> headers = new LinkedHashMap<>();
        f.path("headers").properties().forEach(e -> headers.put(e.getKey(), e.getValue().asText()));
        return new RecordedClientRequest(f.path("path").asText(), headers, f.path("body"));
    }

    /** Replays the request with another model, the master key as the CLI's bearer token; the answer's SSE events. */
    Answer replay(GatewayHarness gateway, String model) {
        ObjectNode b = body.deepCopy();
        b.put("model", model);
        List<String> h = new ArrayList<>();
        headers.forEach((k, v) -> {
            if (!k.equals("content-type") && !k.equals("user-agent")) {
                h.add(k);
                h.add(v);
            }
        });
        HttpResponse<String> r = gateway.postAuthed(path, b.toString(), h.toArray(String[]::new));
        List<SseEvent> events = new ArrayList<>();
        SseParser parser = new SseParser(events::add);
        parser.feed(r.body().getBytes(StandardCharsets.UTF_8));
        parser.end();
        return new Answer(r.statusCode(), r.body(), events);
    }

    record Answer(int status, String body, List<SseEvent> events) {
        List<JsonNode> data() {
            return events.stream().filter(e -> !e.data().equals("[DONE]")).map(e -> Fixtures.parse(e.data())).toList();
        }
    }
}
