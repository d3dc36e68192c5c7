package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AnthropicTest extends SimTestBase {

    @Test
    void nonStreamingTextShape() {
        HttpResponse<String> r = anthropic("{\"model\":\"claude-x\",\"max_tokens\":100,\"messages\":" + userMessages("hi there") + "}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("request-id")).isPresent();
        JsonNode m = json(r.body());
        assertThat(m.path("type").asText()).isEqualTo("message");
        assertThat(m.path("role").asText()).isEqualTo("assistant");
        assertThat(m.path("model").asText()).isEqualTo("claude-x");
        assertThat(m.path("id").asText()).startsWith("msg_");
        assertThat(m.path("content").get(0).path("text").asText()).isEqualTo("Hello from claude-x. You said: hi there");
        assertThat(m.path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(m.has("stop_sequence")).isTrue();
        JsonNode u = m.path("usage");
        assertThat(u.path("input_tokens").asInt()).isEqualTo(Tokens.of("hi there"));
        assertThat(u.path("output_tokens").asInt()).isEqualTo(Tokens.of("Hello from claude-x. You said: hi there"));
        assertThat(u.path("cache_creation").has("ephemeral_5m_input_tokens")).isTrue();
        assertThat(sim.received()).singleElement().satisfies(rr -> {
            assertThat(rr.vendor()).isEqualTo("anthropic");
            assertThat(rr.headers()).containsEntry("x-api-key", "sim-anthropic-key");
            assertThat(rr.clientClosedEarly()).isFalse();
        });
    }

    @Test
    void streamingSequence() {
        HttpResponse<String> r = anthropic("{\"model\":\"claude-x\",\"max_tokens\":100,\"stream\":true,\"messages\":"
                + userMessages("one two three") + "}");
        assertThat(r.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        List<Sse> ev = sse(r.body());
        List<String> names = ev.stream().map(Sse::event).toList();
        assertThat(names.getFirst()).isEqualTo("message_start");
        assertThat(names.subList(1, 3)).containsExactly("content_block_start", "ping");
        assertThat(names.subList(names.size() - 3, names.size())).containsExactly("content_block_stop", "message_delta", "message_stop");
        for (Sse e : ev) assertThat(e.json().path("type").asText()).isEqualTo(e.event());
        StringBuilder text = new StringBuilder();
        ev.stream().filter(e -> e.event().equals("content_block_delta"))
                .forEach(e -> text.append(e.json().path("delta").path("text").asText()));
        assertThat(text.toString()).isEqualTo("Hello from claude-x. You said: one two three");
        assertThat(ev.stream().filter(e -> e.event().equals("content_block_delta")).count()).isEqualTo(8);
        JsonNode md = ev.get(ev.size() - 2).json();
        assertThat(md.path("delta").path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(md.path("usage").path("output_tokens").asInt()).isEqualTo(Tokens.of(text.toString()));
        assertThat(ev.getFirst().json().path("message").path("usage").path("output_tokens").asInt()).isEqualTo(1);
    }

    @Test
    void maxTokensCutsAnswer() {
        JsonNode m = json(anthropic("{\"model\":\"claude-x\",\"max_tokens\":3,\"messages\":" + userMessages("hello") + "}").body());
        assertThat(m.path("stop_reason").asText()).isEqualTo("max_tokens");
        assertThat(m.path("content").get(0).path("text").asText()).isEqualTo("Hello from c");
        assertThat(m.path("usage").path("output_tokens").asInt()).isEqualTo(3);
    }

    @Test
    void promptCachingCreatesThenReads() {
        String sys = "S".repeat(4000);
        String body = "{\"model\":\"claude-cache\",\"max_tokens\":50,\"system\":[{\"type\":\"text\",\"text\":\"" + sys
                + "\",\"cache_control\":{\"type\":\"ephemeral\"}}],\"messages\":" + userMessages("q1") + "}";
        JsonNode u1 = json(anthropic(body).body()).path("usage");
        assertThat(u1.path("cache_creation_input_tokens").asInt()).isEqualTo(1000);
        assertThat(u1.path("cache_creation").path("ephemeral_5m_input_tokens").asInt()).isEqualTo(1000);
        assertThat(u1.path("cache_read_input_tokens").asInt()).isZero();
        assertThat(u1.path("input_tokens").asInt()).isEqualTo(1);
        JsonNode u2 = json(anthropic(body.replace("q1", "q2")).body()).path("usage");
        assertThat(u2.path("cache_read_input_tokens").asInt()).isEqualTo(1000);
        assertThat(u2.path("cache_creation_input_tokens").asInt()).isZero();
        assertThat(u2.path("input_tokens").asInt()).isEqualTo(1);
    }

    @Test
    void oneHourTtlIsReportedSeparately() {
        String body = "{\"model\":\"claude-ttl\",\"max_tokens\":50,\"system\":[{\"type\":\"text\",\"text\":\"" + "T".repeat(400)
                + "\",\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"1h\"}}],\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\""
                + "U".repeat(400) + "\",\"cache_control\":{\"type\":\"ephemeral\"}}]}]}";
        JsonNode u = json(anthropic(body).body()).path("usage");
        assertThat(u.path("cache_creation").path("ephemeral_1h_input_tokens").asInt()).isEqualTo(100);
        assertThat(u.path("cache_creation").path("ephemeral_5m_input_tokens").asInt()).isEqualTo(100);
        assertThat(u.path("cache_creation_input_tokens").asInt()).isEqualTo(200);
        assertThat(u.path("input_tokens").asInt()).isZero();
    }

    @Test
    void toolUseNonStreamingAndStreaming() {
        String tools = "\"tools\":[{\"name\":\"get_weather\",\"description\":\"w\",\"input_schema\":{\"type\":\"object\",\"properties\":"
                + "{\"city\":{\"type\":\"string\"},\"days\":{\"type\":\"integer\"},\"metric\":{\"type\":\"boolean\"},\"tags\":{\"type\":\"array\"},"
                + "\"opts\":{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"number\"}}}}}},{\"name\":\"other\",\"input_schema\":{\"type\":\"object\"}}]";
        JsonNode m = json(anthropic("{\"model\":\"claude-x\",\"max_tokens\":100," + tools + ",\"messages\":" + userMessages("weather?") + "}").body());
        assertThat(m.path("stop_reason").asText()).isEqualTo("tool_use");
        JsonNode block = m.path("content").get(0);
        assertThat(block.path("type").asText()).isEqualTo("tool_use");
        assertThat(block.path("id").asText()).startsWith("toolu_sim_");
        assertThat(block.path("name").asText()).isEqualTo("get_weather");
        assertThat(Json.write(block.path("input"))).isEqualTo("{\"city\":\"sim\",\"days\":1,\"metric\":true,\"tags\":[],\"opts\":{\"x\":1}}");

        List<Sse> ev = sse(anthropic("{\"model\":\"claude-x\",\"max_tokens\":100,\"stream\":true," + tools
                + ",\"tool_choice\":{\"type\":\"tool\",\"name\":\"other\"},\"messages\":" + userMessages("weather?") + "}").body());
        JsonNode start = ev.get(1).json().path("content_block");
        assertThat(start.path("type").asText()).isEqualTo("tool_use");
        assertThat(start.path("name").asText()).isEqualTo("other");
        assertThat(start.path("input").isObject()).isTrue();
        List<JsonNode> deltas = ev.stream().filter(e -> e.event().equals("content_block_delta")).map(e -> e.json().path("delta")).toList();
        assertThat(deltas.getFirst().path("type").asText()).isEqualTo("input_json_delta");
        assertThat(deltas.getFirst().path("partial_json").asText()).isEmpty();
        assertThat(deltas.stream().map(d -> d.path("partial_json").asText()).reduce("", String::concat)).isEqualTo("{}");
        assertThat(ev.get(ev.size() - 2).json().path("delta").path("stop_reason").asText()).isEqualTo("tool_use");
    }

    @Test
    void parallelToolsAndToolResultTurn() {
        String tools = "\"tools\":[{\"name\":\"a\",\"input_schema\":{\"type\":\"object\"}},{\"name\":\"b\",\"input_schema\":{\"type\":\"object\"}}]";
        JsonNode m = json(anthropic("{\"model\":\"claude-x\",\"max_tokens\":100," + tools + ",\"messages\":"
                + userMessages("go [[sim:parallel_tools=2]]") + "}").body());
        assertThat(m.path("content")).hasSize(2);
        assertThat(m.path("content").get(1).path("name").asText()).isEqualTo("b");

        String id = m.path("content").get(0).path("id").asText();
        String history = "[{\"role\":\"user\",\"content\":\"go\"},{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"" + id
                + "\",\"name\":\"a\",\"input\":{}}]},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"" + id
                + "\",\"content\":\"sunny and 21C\"}]}]";
        JsonNode m2 = json(anthropic("{\"model\":\"claude-x\",\"max_tokens\":100," + tools + ",\"messages\":" + history + "}").body());
        assertThat(m2.path("stop_reason").asText()).isEqualTo("end_turn");
        assertThat(m2.path("content").get(0).path("text").asText()).isEqualTo("Tool result received: sunny and 21C");
    }

    @Test
    void thinkingSignatureRoundTrip() {
        String req = "{\"model\":\"claude-x\",\"max_tokens\":2000,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},\"messages\":"
                + userMessages("why is the sky blue") + "}";
        JsonNode m = json(anthropic(req).body());
        JsonNode th = m.path("content").get(0);
        assertThat(th.path("type").asText()).isEqualTo("thinking");
        assertThat(th.path("thinking").asText()).isEqualTo("Let me think about: why is the sky blue");
        assertThat(th.path("signature").asText()).isNotEmpty();
        assertThat(m.path("content").get(1).path("type").asText()).isEqualTo("text");

        ObjectNode replay = (ObjectNode) json(req);
        var msgs = replay.withArray("messages");
        ObjectNode assistant = msgs.addObject().put("role", "assistant");
        assistant.set("content", m.path("content"));
        msgs.addObject().put("role", "user").put("content", "and at night?");
        assertThat(anthropic(Json.write(replay)).statusCode()).isEqualTo(200);

        ((ObjectNode) assistant.path("content").get(0)).put("thinking", "tampered");
        HttpResponse<String> bad = anthropic(Json.write(replay));
        assertThat(bad.statusCode()).isEqualTo(400);
        JsonNode err = json(bad.body());
        assertThat(err.path("type").asText()).isEqualTo("error");
        assertThat(err.path("error").path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(err.path("error").path("message").asText()).contains("Invalid `signature` in `thinking` block");
    }

    @Test
    void thinkingStreamsDeltasThenSignature() {
        List<Sse> ev = sse(anthropic("{\"model\":\"claude-x\",\"max_tokens\":2000,\"stream\":true,\"thinking\":{\"type\":\"adaptive\"},\"messages\":"
                + userMessages("hmm") + "}").body());
        assertThat(ev.get(1).json().path("content_block").path("type").asText()).isEqualTo("thinking");
        List<String> deltaTypes = ev.stream().filter(e -> e.event().equals("content_block_delta") && e.json().path("index").asInt() == 0)
                .map(e -> e.json().path("delta").path("type").asText()).toList();
        assertThat(deltaTypes.getLast()).isEqualTo("signature_delta");
        assertThat(deltaTypes.subList(0, deltaTypes.size() - 1)).allMatch("thinking_delta"::equals);
    }

    @Test
    void redactedThinkingDirective() {
        JsonNode m = json(anthropic("{\"model\":\"claude-x\",\"max_tokens\":2000,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},\"messages\":"
                + userMessages("x [[sim:redacted]]") + "}").body());
        assertThat(m.path("content").get(0).path("type").asText()).isEqualTo("redacted_thinking");
        assertThat(m.path("content").get(0).path("data").asText()).isNotEmpty();
    }

    @Test
    void thinkingBudgetValidation() {
        HttpResponse<String> low = anthropic("{\"model\":\"claude-x\",\"max_tokens\":2000,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":100},\"messages\":"
                + userMessages("x") + "}");
        assertThat(low.statusCode()).isEqualTo(400);
        HttpResponse<String> over = anthropic("{\"model\":\"claude-x\",\"max_tokens\":1024,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},\"messages\":"
                + userMessages("x") + "}");
        assertThat(over.statusCode()).isEqualTo(400);
        assertThat(json(over.body()).path("error").path("message").asText()).contains("max_tokens");
    }

    @Test
    void forcedToolWithThinkingIsRefused() {
        String tools = "\"tools\":[{\"name\":\"city\",\"input_schema\":{\"type\":\"object\"}}],";
        for (String choice : List.of("{\"type\":\"tool\",\"name\":\"city\"}", "{\"type\":\"any\"}")) {
            HttpResponse<String> r = anthropic("{\"model\":\"claude-x\",\"max_tokens\":100,\"thinking\":{\"type\":\"adaptive\"}," + tools
                    + "\"tool_choice\":" + choice + ",\"messages\":" + userMessages("x") + "}");
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(json(r.body()).path("error").path("message").asText()).contains("tool_choice forces tool use");
        }
        HttpResponse<String> plain = anthropic("{\"model\":\"claude-x\",\"max_tokens\":100," + tools
                + "\"tool_choice\":{\"type\":\"tool\",\"name\":\"city\"},\"messages\":" + userMessages("x") + "}");
        assertThat(json(plain.body()).path("content").get(0).path("type").asText()).isEqualTo("tool_use");
    }

    /**
     * With thinking on, a tool loop's turn must open with vendor A's thinking: the loop answered by another model
     * (its tool_use first) is refused, the same loop without thinking is not, and a turn that opens with its thinking
     * passes even though a later tool_use message of the same turn has none.
     */
    @Test
    void toolLoopWhoseTurnDoesNotOpenWithThinkingIsRefusedWhenThinking() {
        String tools = "\"tools\":[{\"name\":\"a\",\"input_schema\":{\"type\":\"object\"}}],";
        String foreign = "[{\"role\":\"user\",\"content\":\"go\"},"
                + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"a\",\"input\":{}}]},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"18C\"}]}]";
        HttpResponse<String> refused = anthropic("{\"model\":\"claude-x\",\"max_tokens\":100,\"thinking\":{\"type\":\"adaptive\"},"
                + tools + "\"messages\":" + foreign + "}");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(json(refused.body()).path("error").path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(json(refused.body()).path("error").path("message").asText()).startsWith(
                "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is "
                        + "enabled, a final `assistant` message must start with a thinking block");
        assertThat(anthropic("{\"model\":\"claude-x\",\"max_tokens\":100," + tools + "\"messages\":" + foreign + "}").statusCode())
                .isEqualTo(200);

        String thinking = "{\"model\":\"claude-x\",\"max_tokens\":2000,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},";
        JsonNode first = json(anthropic(thinking + tools + "\"messages\":" + userMessages("go") + "}").body());
        assertThat(first.path("content").get(0).path("type").asText()).isEqualTo("thinking");
        ObjectNode replay = (ObjectNode) json(thinking + tools + "\"messages\":" + userMessages("go") + "}");
        var msgs = replay.withArray("messages");
        msgs.addObject().put("role", "assistant").set("content", first.path("content"));
        String id = first.path("content").get(1).path("id").asText();
        msgs.add(json("{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"" + id + "\",\"content\":\"18C\"}]}"));
        msgs.add(json("{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t2\",\"name\":\"a\",\"input\":{}}]}"));
        msgs.add(json("{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t2\",\"content\":\"19C\"}]}"));
        assertThat(anthropic(Json.write(replay)).statusCode()).isEqualTo(200);
    }

    @Test
    void cacheTtlOtherThanFiveMinutesOrOneHourIsRefused() {
        HttpResponse<String> r = anthropic("{\"model\":\"claude-x\",\"max_tokens\":100,\"system\":[{\"type\":\"text\",\"text\":\"s\","
                + "\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"2h\"}}],\"messages\":" + userMessages("x") + "}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r.body()).path("error").path("message").asText())
                .isEqualTo("system.0.cache_control.ephemeral.ttl: Input should be '5m' or '1h'");
        HttpResponse<String> ok = anthropic("{\"model\":\"claude-x\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"x\",\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"1h\"}}]}]}");
        assertThat(ok.statusCode()).isEqualTo(200);
    }

    @Test
    void structuredOutputAndImages() {
        JsonNode m = json(anthropic("{\"model\":\"claude-x\",\"max_tokens\":100,\"output_config\":{\"format\":{\"type\":\"json_schema\",\"schema\":"
                + "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}}}}},\"messages\":" + userMessages("x") + "}").body());
        assertThat(m.path("content").get(0).path("text").asText()).isEqualTo("{\"n\":1}");
        JsonNode img = json(anthropic("{\"model\":\"claude-x\",\"max_tokens\":100,\"messages\":[{\"role\":\"user\",\"content\":["
                + "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\",\"data\":\"AAAA\"}},"
                + "{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"https://x/y.png\"}},{\"type\":\"text\",\"text\":\"what?\"}]}]}").body());
        assertThat(img.path("content").get(0).path("text").asText()).contains("I see 2 image(s)");
    }

    @Test
    void authAndModelErrors() {
        HttpResponse<String> r = post("/anthropic/v1/messages?beta=true", "{}", "x-api-key", "wrong");
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(json(r.body()).path("error").path("type").asText()).isEqualTo("authentication_error");
        HttpResponse<String> nf = anthropic("{\"model\":\"claude-does-not-exist\",\"max_tokens\":5,\"messages\":" + userMessages("x") + "}");
        assertThat(nf.statusCode()).isEqualTo(404);
        assertThat(json(nf.body()).path("error").path("type").asText()).isEqualTo("not_found_error");
        assertThat(json(nf.body()).path("error").path("message").asText()).isEqualTo("model: claude-does-not-exist");
        HttpResponse<String> beta = post("/anthropic/v1/messages?beta=true", "{\"model\":\"m\",\"max_tokens\":5,\"messages\":" + userMessages("x") + "}",
                "authorization", "Bearer sim-anthropic-key");
        assertThat(beta.statusCode()).isEqualTo(200);
    }

    @Test
    void countTokens() {
        HttpResponse<String> r = post("/anthropic/v1/messages/count_tokens", "{\"model\":\"m\",\"system\":\"12345678\",\"messages\":" + userMessages("abcd") + "}",
                "x-api-key", "sim-anthropic-key");
        assertThat(json(r.body()).path("input_tokens").asInt()).isEqualTo(3);
    }
}
