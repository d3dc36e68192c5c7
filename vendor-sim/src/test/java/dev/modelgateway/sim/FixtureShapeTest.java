package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replays recorded vendor payloads from the repository's fixtures/ against the simulator's output: every key the
 * vendor sent must also be present in the simulator's equivalent payload (values are not compared).
 */
class FixtureShapeTest extends SimTestBase {

    /** Keys real vendors send that the simulator deliberately omits (telemetry, regional or obsolete). */
    static final Set<String> IGNORED = Set.of("inference_geo", "serviceTier", "obfuscation", "finishMessage", "system_fingerprint",
            "service_tier", "annotations", "cache_write_tokens", "citations",
            "generate_summary" /* deprecated alias in old Responses recordings */);

    static final Set<String> PAYLOAD = Set.of("input", "args", "parameters");

    static Path fixtures() {
        String prop = System.getProperty("fixtures.dir");
        Path p = prop != null ? Path.of(prop) : Path.of("../fixtures"); // the repository's fixtures/, seen from vendor-sim/
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException("recorded fixtures not found at " + p.toAbsolutePath()
                    + "; run from the vendor-sim module or pass -Dfixtures.dir=<repository>/fixtures");
        }
        return p;
    }

    static String read(String rel) {
        try {
            return Files.readString(fixtures().resolve(rel));
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    /** Asserts that every key of {@code fixture} (recursively) exists in {@code ours}. */
    static void assertCovers(String where, JsonNode fixture, JsonNode ours) {
        if (fixture.isObject()) {
            assertThat(ours.isObject()).as(where + " should be an object: " + ours).isTrue();
            for (Iterator<Map.Entry<String, JsonNode>> it = fixture.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (IGNORED.contains(e.getKey())) continue;
                assertThat(ours.has(e.getKey())).as(where + " lacks key '" + e.getKey() + "' in " + ours).isTrue();
                JsonNode o = ours.get(e.getKey());
                if (PAYLOAD.contains(e.getKey())) continue; // tool arguments are domain data, not wire shape
                if (!e.getValue().isNull() && !o.isNull()) assertCovers(where + "." + e.getKey(), e.getValue(), o);
            }
        } else if (fixture.isArray() && !fixture.isEmpty() && ours.isArray() && !ours.isEmpty()) {
            for (JsonNode f : fixture) {
                JsonNode match = ours.get(0);
                String type = Json.text(f, "type");
                if (type != null) for (JsonNode o : ours) if (type.equals(Json.text(o, "type"))) match = o;
                if (type == null) {
                    for (JsonNode o : ours) {
                        boolean all = true;
                        for (Iterator<String> k = f.fieldNames(); k.hasNext(); ) {
                            String key = k.next();
                            if (!IGNORED.contains(key) && !o.has(key)) all = false;
                        }
                        if (all) {
                            match = o;
                            break;
                        }
                    }
                }
                if (type == null || type.equals(Json.text(match, "type"))) assertCovers(where + "[]", f, match);
            }
        }
    }

    /** Compares SSE streams event-kind by event-kind (the classifier names the kind of an event). */
    static void assertStreamCovers(String where, List<Sse> fixture, List<Sse> ours, Function<Sse, String> kind) {
        Map<String, JsonNode> mine = new LinkedHashMap<>();
        for (Sse e : ours) if (!e.data().equals("[DONE]")) mine.putIfAbsent(kind.apply(e), e.json());
        List<String> missing = new ArrayList<>();
        for (Sse e : fixture) {
            if (e.data().equals("[DONE]")) continue;
            String k = kind.apply(e);
            JsonNode o = mine.get(k);
            if (o == null) missing.add(k);
            else assertCovers(where + "<" + k + ">", e.json(), o);
        }
        assertThat(missing).as(where + " event kinds missing").isEmpty();
    }

    static String anthropicKind(Sse e) {
        JsonNode j = e.json();
        return e.event() + ":" + j.path("content_block").path("type").asText("") + j.path("delta").path("type").asText("");
    }

    static String chatKind(Sse e) {
        JsonNode j = e.json();
        if (j.path("choices").isArray() && j.path("choices").isEmpty()) return "usage";
        JsonNode c = j.path("choices").get(0);
        if (!c.path("finish_reason").isNull() && c.has("finish_reason")) return "finish";
        JsonNode d = c.path("delta");
        if (d.has("role")) return "first";
        if (d.has("tool_calls")) return d.path("tool_calls").get(0).path("function").has("name") ? "tool-start" : "tool-args";
        if (d.hasNonNull("reasoning_content")) return "reasoning";
        return "content";
    }

    static String anthropicBody(String extra, String text) {
        return "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":2000," + extra + "\"messages\":" + userMessages(text) + "}";
    }

    @Test
    void anthropicPayloads() {
        assertCovers("anthropic cache message", json(read("anthropic/message-cache-read-and-write.json")),
                json(anthropic(anthropicBody("", "hi")).body()));
        assertCovers("anthropic tool message", json(read("anthropic/message-tool-use-parallel.json")),
                json(anthropic(anthropicBody("\"tools\":[{\"name\":\"t\",\"input_schema\":{\"type\":\"object\"}}],", "hi")).body()));
        assertCovers("anthropic 429", json(read("anthropic/error-429-rate-limit.json")),
                json(anthropic(anthropicBody("", "[[sim:status=429]]")).body()));
        assertCovers("anthropic 404", json(read("anthropic/error-404-model-not-found.json")),
                json(anthropic("{\"model\":\"x-does-not-exist\",\"max_tokens\":5,\"messages\":" + userMessages("x") + "}").body()));
        assertStreamCovers("anthropic text stream", sse(read("anthropic/stream-text-plain.sse")),
                sse(anthropic(anthropicBody("\"stream\":true,", "hi")).body()), FixtureShapeTest::anthropicKind);
        assertStreamCovers("anthropic thinking stream", sse(read("anthropic/stream-thinking-signature.sse")),
                sse(anthropic(anthropicBody("\"stream\":true,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},", "hi")).body()),
                FixtureShapeTest::anthropicKind);
        assertStreamCovers("anthropic tool stream", sse(read("anthropic/stream-tool-use-single-fragmented.sse")),
                sse(anthropic(anthropicBody("\"stream\":true,\"tools\":[{\"name\":\"t\",\"input_schema\":{\"type\":\"object\"}}],", "hi")).body()),
                FixtureShapeTest::anthropicKind);
        assertStreamCovers("anthropic redacted stream", sse(read("anthropic/stream-redacted-thinking.sse")),
                sse(anthropic(anthropicBody("\"stream\":true,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},", "hi [[sim:redacted]]")).body()),
                FixtureShapeTest::anthropicKind);
        assertStreamCovers("anthropic midstream error", sse(read("anthropic/stream-error-overloaded-midstream.sse")),
                sse(anthropic(anthropicBody("\"stream\":true,", "hi [[sim:error_after=3]]")).body()), FixtureShapeTest::anthropicKind);
    }

    @Test
    void openaiChatPayloads() {
        String tools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_current_weather\",\"parameters\":{\"type\":\"object\"}}}],";
        assertCovers("chat tool response", json(read("openai-chat/response-tool-call.json")),
                json(openai("{\"model\":\"gpt-5-nano\"," + tools + "\"messages\":" + userMessages("x") + "}").body()));
        assertCovers("chat cached response", json(read("openai-chat/response-reasoning-tokens.json")),
                json(openai("{\"model\":\"gpt-5-nano\",\"messages\":" + userMessages("x") + "}").body()));
        assertCovers("chat 404", json(read("openai-chat/error-404-model-not-found.json")),
                json(openai("{\"model\":\"gpt-does-not-exist\",\"messages\":" + userMessages("x") + "}").body()));
        String stream = "{\"model\":\"gpt-4o\",\"stream\":true,\"stream_options\":{\"include_usage\":true},";
        assertStreamCovers("chat text stream", sse(read("openai-chat/stream-text-plain.sse")),
                sse(openai(stream + "\"messages\":" + userMessages("x") + "}").body()), FixtureShapeTest::chatKind);
        assertStreamCovers("chat parallel tool stream", sse(read("openai-chat/stream-tool-calls-parallel.sse")),
                sse(openai(stream + tools + "\"messages\":" + userMessages("x") + "}").body()), FixtureShapeTest::chatKind);
        List<Sse> err = sse(openai(stream + "\"messages\":" + userMessages("[[sim:error_after=2]]") + "}").body());
        assertCovers("chat midstream error", sse(read("openai-chat/stream-error-midstream.sse")).getLast().json(), err.getLast().json());
    }

    @Test
    void qwenPayloads() {
        String tools = "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"weather\",\"parameters\":{\"type\":\"object\"}}}],";
        assertCovers("qwen text", json(read("qwen/response-text.json")),
                json(dashscope("{\"model\":\"qwen3-max\",\"messages\":" + userMessages("x") + "}").body()));
        assertCovers("qwen reasoning", json(read("qwen/response-reasoning-content.json")),
                json(dashscope("{\"model\":\"qwen3-max\",\"enable_thinking\":true,\"messages\":" + userMessages("x") + "}").body()));
        assertCovers("qwen tool", json(read("qwen/response-tool-call.json")),
                json(dashscope("{\"model\":\"qwen3-max\"," + tools + "\"messages\":" + userMessages("x") + "}").body()));
        String stream = "{\"model\":\"qwen3-max\",\"stream\":true,\"stream_options\":{\"include_usage\":true},";
        assertStreamCovers("qwen text stream", sse(read("qwen/stream-text.sse")),
                sse(dashscope(stream + "\"messages\":" + userMessages("x") + "}").body()), FixtureShapeTest::chatKind);
        assertStreamCovers("qwen reasoning stream", sse(read("qwen/stream-reasoning-content.sse")),
                sse(dashscope(stream + "\"enable_thinking\":true,\"messages\":" + userMessages("x") + "}").body()), FixtureShapeTest::chatKind);
        assertStreamCovers("qwen tool stream", sse(read("qwen/stream-tool-call.sse")),
                sse(dashscope(stream + tools + "\"messages\":" + userMessages("x") + "}").body()), FixtureShapeTest::chatKind);
        assertCovers("qwen midstream error", sse(read("qwen/stream-error-midstream-data-inspection.sse")).getLast().json(),
                sse(dashscope(stream + "\"messages\":" + userMessages("[[sim:error_after=1]]") + "}").body()).getLast().json());
    }

    @Test
    void geminiPayloads() {
        String user = "\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"x\"}]}]";
        assertCovers("gemini text", json(read("gemini/response-text.json")),
                json(gemini("gemini-2.5-flash", "generateContent", "{" + user + ",\"generationConfig\":{\"thinkingConfig\":{\"includeThoughts\":true}}}").body()));
        assertCovers("gemini parallel calls", json(read("gemini/response-function-calls-parallel.json")),
                json(gemini("gemini-3-flash-preview", "generateContent", "{" + user.replace("\"x\"", "\"x [[sim:parallel_tools=3]]\"")
                        + ",\"generationConfig\":{\"thinkingConfig\":{\"includeThoughts\":true}},\"tools\":[{\"functionDeclarations\":["
                        + "{\"name\":\"a\"},{\"name\":\"b\"},{\"name\":\"c\"}]}]}").body()));
        assertCovers("gemini 404", json(read("gemini/error-404-model-not-found.json")),
                json(gemini("gemini-does-not-exist", "generateContent", "{" + user + "}").body()));
        // details (QuotaFailure/RetryInfo) are omitted on purpose: a retryDelay would slow clients under test
        ObjectNode q = (ObjectNode) json(read("gemini/error-429-resource-exhausted.json"));
        ((ObjectNode) q.get("error")).remove("details");
        assertCovers("gemini 429", q, json(gemini("g", "generateContent", "{" + user.replace("\"x\"", "\"[[sim:status=429]]\"") + "}").body()));
        List<Sse> fixture = sse(read("gemini/stream-text-plain.sse"));
        List<Sse> ours = sse(gemini("gemini-2.5-flash", "streamGenerateContent", "{" + user + "}").body());
        assertCovers("gemini stream first", fixture.getFirst().json(), ours.getFirst().json());
        assertCovers("gemini stream last", fixture.getLast().json(), ours.getLast().json());
        List<Sse> err = sse(gemini("g", "streamGenerateContent", "{" + user.replace("\"x\"", "\"[[sim:error_after=1]]\"") + "}").body());
        assertCovers("gemini midstream error", sse(read("gemini/stream-error-midstream.sse")).getLast().json(), err.getLast().json());
    }
}
