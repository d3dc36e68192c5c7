package dev.modelgateway.e2e.translation;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.e2e.SimUsage;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gemini thought signatures through the gateway to the simulator, as Claude Code and Codex see them: a signed
 * answer stays one text block (one message item) with nothing after it, a Responses function call keeps its
 * signature across a stateless replay, thinking from vendor C does not break vendor A after a switch, and
 * translated message streams report input tokens in {@code message_start}.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class GeminiSignaturesThroughGatewayTest {
    static final String GEMINI = "vendorC-pro-3";
    static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final String WEATHER_TOOL = """
            {"name":"get_weather","description":"Weather for a city",
             "input_schema":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}""";

    static GatewayHarness h;
    static AnthropicClient client;

    static ObjectNode messagesBody(String model, String tools, JsonNode... messages) {
        ObjectNode body = F.objectNode().put("model", model).put("max_tokens", 4096);
        body.putObject("thinking").put("type", "enabled").put("budget_tokens", 2048);
        if (tools != null) body.putArray("tools").add(Json.parseOrNull(tools));
        ArrayNode m = body.putArray("messages");
        for (JsonNode n : messages) m.add(n);
        return body;
    }

    static ObjectNode user(String text) {
        return F.objectNode().put("role", "user").put("content", text);
    }

    static JsonNode post(String path, JsonNode body) {
        HttpResponse<String> r = h.postAuthed(path, body.toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("x-platform-warnings")).as("warnings").isEmpty();
        return Json.parseOrNull(r.body());
    }

    static JsonNode lastGeminiRequest() {
        List<ReceivedRequest> log = h.sim.received();
        for (int i = log.size() - 1; i >= 0; i--) if (log.get(i).vendor().equals("gemini")) return Json.parseOrNull(log.get(i).body());
        throw new AssertionError("no Gemini request");
    }

    /** The parts of the last model turn the simulator received. */
    static JsonNode lastModelParts() {
        JsonNode contents = lastGeminiRequest().path("contents");
        for (int i = contents.size() - 1; i >= 0; i--) if (contents.get(i).path("role").asText().equals("model")) return contents.get(i).path("parts");
        throw new AssertionError("no model turn in " + contents);
    }

    static List<String> types(JsonNode content) {
        List<String> out = new ArrayList<>();
        content.forEach(b -> out.add(b.path("type").asText()));
        return out;
    }

    @Test
    void signedAnswerIsOneTextBlockAndItsSignatureGoesBackOnTheTextPart() {
        JsonNode first = post("/api/v1/messages", messagesBody(GEMINI, null, user("Hello gateway")));
        JsonNode content = first.get("content");
        assertThat(types(content)).as(content.toString()).containsExactly("thinking", "thinking", "text");
        assertThat(content.get(2).path("text").asText()).isEqualTo("Hello from vendorC-pro-3. You said: Hello gateway");
        String sealed = content.get(1).path("signature").asText();
        assertThat(sealed).startsWith("gemini-text:");

        ObjectNode assistant = F.objectNode().put("role", "assistant");
        assistant.set("content", content);
        post("/api/v1/messages", messagesBody(GEMINI, null, user("Hello gateway"), assistant, user("And again")));
        JsonNode text = null;
        for (JsonNode p : lastModelParts()) if (p.has("text") && !p.path("thought").asBoolean(false)) text = p;
        assertThat(text).as(lastModelParts().toString()).isNotNull();
        assertThat(text.path("thoughtSignature").asText()).isEqualTo(sealed.substring("gemini-text:".length()));
    }

    @Test
    void signedStreamedAnswerEndsWithItsOneTextBlock() {
        MessageCreateParams params = MessageCreateParams.builder().model(GEMINI).maxTokens(4096)
                .enabledThinking(2048).addUserMessage("Hello gateway").build();
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(params)) {
            s.stream().forEach(acc::accumulate);
        }
        Message m = acc.message();
        assertThat(m.content().stream().filter(b -> b.isText()).count()).isEqualTo(1);
        assertThat(m.content().getLast().isText()).as(m.content().toString()).isTrue();
        assertThat(m.content().getLast().asText().text()).isEqualTo("Hello from vendorC-pro-3. You said: Hello gateway");
    }

    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {false, true})
    void responsesFunctionCallSignatureSurvivesAStatelessReplay(boolean stream) {
        ObjectNode body = F.objectNode().put("model", GEMINI).put("store", false).put("input", "Weather in Paris?");
        body.putArray("include").add("reasoning.encrypted_content");
        body.putObject("reasoning").put("effort", "low");
        body.putArray("tools").addObject().put("type", "function").put("name", "get_weather")
                .put("description", "Weather for a city")
                .set("parameters", Json.parseOrNull("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"));
        JsonNode output = stream ? streamedOutput(body.deepCopy().put("stream", true)) : post("/api/v1/responses", body).get("output");
        String upstreamSig = null;
        JsonNode call = null;
        for (JsonNode item : output) {
            if (item.path("type").asText().equals("reasoning") && item.path("encrypted_content").asText().startsWith("gemini-call:")) {
                upstreamSig = item.path("encrypted_content").asText().substring("gemini-call:".length());
            }
            if (item.path("type").asText().equals("function_call")) call = item;
        }
        assertThat(upstreamSig).as(output.toString()).isNotBlank();
        assertThat(call).isNotNull();

        ArrayNode input = F.arrayNode();
        input.addObject().put("role", "user").put("content", "Weather in Paris?");
        output.forEach(input::add);
        input.addObject().put("type", "function_call_output").put("call_id", call.path("call_id").asText()).put("output", "18C");
        ObjectNode next = body.deepCopy();
        next.set("input", input);
        post("/api/v1/responses", next);
        JsonNode fc = null;
        for (JsonNode p : lastModelParts()) if (p.has("functionCall")) fc = p;
        assertThat(fc).isNotNull();
        assertThat(fc.path("thoughtSignature").asText()).isEqualTo(upstreamSig).isNotEqualTo("skip_thought_signature_validator");
    }

    static JsonNode streamedOutput(JsonNode body) {
        HttpResponse<String> r = h.postAuthed("/api/v1/responses", body.toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        for (String line : r.body().split("\n")) {
            if (line.startsWith("data: ") && line.contains("\"response.completed\"")) {
                return Json.parseOrNull(line.substring(6)).at("/response/output");
            }
        }
        throw new AssertionError("no response.completed in " + r.body());
    }

    @Test
    void switchingBackToVendorAAfterVendorCThinkingIsAccepted() {
        JsonNode first = post("/api/v1/messages", messagesBody(GEMINI, WEATHER_TOOL, user("Weather in Paris?")));
        JsonNode content = first.get("content");
        assertThat(types(content)).contains("thinking", "tool_use");
        String useId = null;
        for (JsonNode b : content) if (b.path("type").asText().equals("tool_use")) useId = b.path("id").asText();
        ObjectNode assistant = F.objectNode().put("role", "assistant");
        assistant.set("content", content);
        ObjectNode result = F.objectNode().put("role", "user");
        result.putArray("content").addObject().put("type", "tool_result").put("tool_use_id", useId).put("content", "18C");
        ObjectNode back = messagesBody("platform/vendorA-sonnet-5", WEATHER_TOOL, user("Weather in Paris?"), assistant, result);
        back.putObject("thinking").put("type", "adaptive");

        HttpResponse<String> r = h.postAuthed("/api/v1/messages", back.toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(r.body()).at("/content").toString()).contains("Tool result received: 18C");
        JsonNode sent = Json.parseOrNull(h.sim.received().getLast().body());
        assertThat(types(sent.at("/messages/1/content"))).containsExactly("tool_use");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"vendorC-pro-3", "platform/vendorB-5.5", "vendorD-plus-latest"})
    void translatedMessageStreamsReportInputTokensInMessageStart(String model) {
        MessageCreateParams params = MessageCreateParams.builder().model(model).maxTokens(1024)
                .addUserMessage("Hello gateway, please count my input tokens").build();
        List<RawMessageStreamEvent> events = new ArrayList<>();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(params)) {
            s.stream().forEach(events::add);
        }
        long atStart = events.getFirst().asMessageStart().message().usage().inputTokens();
        SimUsage sim = SimUsage.replay(h, h.sim.received().getLast());
        if (model.startsWith("vendorC")) assertThat(atStart).isEqualTo(sim.uncachedInput());
        else assertThat(atStart).isPositive();
        long atEnd = events.stream().filter(RawMessageStreamEvent::isMessageDelta).findFirst().orElseThrow()
                .asMessageDelta().usage().inputTokens().orElseThrow();
        assertThat(atEnd).as("message_delta carries the vendor's count").isEqualTo(sim.uncachedInput());
    }
}
