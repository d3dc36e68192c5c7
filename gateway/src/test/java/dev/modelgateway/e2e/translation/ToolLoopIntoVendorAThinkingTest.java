package dev.modelgateway.e2e.translation;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.HttpResponseFor;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.ThinkingConfigAdaptive;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A tool loop whose tool call another vendor answered (a caller switching models mid-loop, or a
 * {@code platform_options.fallbacks} model answering one turn) continued on vendor A with thinking on. Vendor A refuses
 * thinking when the turn being continued does not open with its own thinking block, and the gateway drops every
 * thinking block vendor A did not sign; so the gateway does not send thinking for that request (docs/translation.md,
 * "Thinking on a tool loop another vendor began"): its own default silently, the caller's with a warning. A loop vendor A
 * began with its signed thinking keeps thinking on.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class ToolLoopIntoVendorAThinkingTest {
    static final String A = "platform/vendorA-sonnet-5";
    static final String WARNING = "thinking not sent for this request";
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    static GatewayHarness h;
    static AnthropicClient messages;

    @ParameterizedTest(name = "{0} stream={1}")
    @CsvSource({"vendorC-pro-3,false", "vendorC-pro-3,true", "vendorD-plus-latest,false", "vendorD-plus-latest,true"})
    void chatToolLoopBegunByAnotherVendorContinuesOnSonnet5(String first, boolean stream) {
        String marker = "chat-" + first + "-" + stream;
        ArrayNode history = F.arrayNode();
        history.addObject().put("role", "user").put("content", "Weather in Paris? " + marker);
        JsonNode call = chatTurn(first, history);
        assertThat(call.path("tool_calls")).as(call.toString()).hasSize(1);
        answerToolCall(history, call);

        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", chatBody(A, history, null, stream).toString());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(answer(r, stream)).isEqualTo("Tool result received: 18C");
        JsonNode sent = lastUpstream(marker);
        assertThat(sent.path("model").asText()).isEqualTo("vendorA-sonnet-5");
        assertThat(sent.has("thinking")).as(sent.toString()).isFalse();
        // The default thinking was the gateway's choice: dropping it is not the caller's business.
        assertThat(String.join("; ", r.headers().allValues("x-platform-warnings"))).doesNotContain(WARNING);
    }

    /** The first turn meant for vendor A is answered by the fallback vendor C; the tool result goes to vendor A again. */
    @Test
    void chatToolLoopWhoseFirstTurnAFallbackAnsweredContinuesOnSonnet5() {
        String marker = "fallback-" + System.nanoTime();
        ArrayNode history = F.arrayNode();
        history.addObject().put("role", "user").put("content", "Weather in Paris? [[sim:status=529;times=2;" + marker + "]]");
        ObjectNode options = F.objectNode().put("max_retries", 1);
        options.putArray("fallbacks").add("vendorC-pro-3");
        HttpResponse<String> firstTurn = h.postAuthed("/api/v1/chat/completions", chatBody(A, history, options, false).toString());
        assertThat(firstTurn.statusCode()).as(firstTurn.body()).isEqualTo(200);
        assertThat(firstTurn.headers().firstValue("x-platform-fallback")).hasValue("1");
        JsonNode call = Json.parseOrNull(firstTurn.body()).at("/choices/0/message");
        answerToolCall(history, call);

        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", chatBody(A, history, options, false).toString());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("x-platform-model")).hasValue(A);
        assertThat(Json.parseOrNull(r.body()).at("/choices/0/message/content").asText()).isEqualTo("Tool result received: 18C");
        assertThat(lastUpstream(marker).has("thinking")).isFalse();
    }

    /** Vendor A began the loop with its signed thinking: it comes back first in the turn, and thinking stays on. */
    @ParameterizedTest(name = "stream={0}")
    @ValueSource(booleans = {false, true})
    void chatToolLoopBegunBySonnet5KeepsItsDefaultThinking(boolean stream) {
        String marker = "chat-own-" + stream;
        ArrayNode history = F.arrayNode();
        history.addObject().put("role", "user").put("content", "Weather in Paris? " + marker);
        JsonNode call = chatTurn(A, history);
        assertThat(call.path("thinking_blocks")).as(call.toString()).isNotEmpty();
        answerToolCall(history, call);

        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", chatBody(A, history, null, stream).toString());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(answer(r, stream)).isEqualTo("Tool result received: 18C");
        JsonNode sent = lastUpstream(marker);
        assertThat(sent.at("/thinking/type").asText()).isEqualTo("adaptive");
        assertThat(sent.at("/messages/1/content/0/type").asText()).isEqualTo("thinking");
        assertThat(String.join("; ", r.headers().allValues("x-platform-warnings"))).doesNotContain(WARNING);
    }

    /**
     * The native messages path (anthropic-java): vendor C answered the tool call with its own (foreign) thinking;
     * the caller asks vendor A for thinking explicitly, gets its answer without thinking and a warning saying why.
     */
    @Test
    void messagesToolLoopBegunByVendorCDropsTheCallersThinkingWithAWarning() {
        String marker = "messages-vendorC";
        MessageCreateParams.Builder firstTurn = MessageCreateParams.builder().model("vendorC-pro-3").maxTokens(2048)
                .thinking(ThinkingConfigAdaptive.builder().build()).addTool(weatherTool())
                .addUserMessage("Weather in Paris? " + marker);
        Message first = messages.messages().create(firstTurn.build());
        ToolUseBlock use = first.content().stream().filter(ContentBlock::isToolUse).findFirst().orElseThrow().asToolUse();
        assertThat(first.content().getFirst().isThinking()).as("vendor C thought first").isTrue();

        HttpResponseFor<Message> raw = messages.messages().withRawResponse().create(firstTurn.model(A)
                .addMessage(first).addUserMessageOfContentBlockParams(List.of(toolResult(use))).build());

        assertThat(raw.statusCode()).isEqualTo(200);
        Message answer = raw.parse();
        assertThat(answer.content()).noneMatch(ContentBlock::isThinking);
        assertThat(answer.content().getLast().asText().text()).isEqualTo("Tool result received: 18C");
        assertThat(String.join("; ", raw.headers().values("x-platform-warnings"))).contains(WARNING);
        JsonNode sent = lastUpstream(marker);
        assertThat(sent.path("model").asText()).isEqualTo("vendorA-sonnet-5");
        assertThat(sent.has("thinking")).as(sent.toString()).isFalse();
        assertThat(sent.toString()).doesNotContain("\"type\":\"thinking\"");
    }

    /** The native messages path with vendor A's own signed thinking first in the turn: the caller's thinking is kept. */
    @Test
    void messagesToolLoopBegunBySonnet5KeepsTheCallersThinking() {
        String marker = "messages-own";
        MessageCreateParams.Builder firstTurn = MessageCreateParams.builder().model(A).maxTokens(2048)
                .thinking(ThinkingConfigAdaptive.builder().build()).addTool(weatherTool())
                .addUserMessage("Weather in Paris? " + marker);
        Message first = messages.messages().create(firstTurn.build());
        ToolUseBlock use = first.content().stream().filter(ContentBlock::isToolUse).findFirst().orElseThrow().asToolUse();

        HttpResponseFor<Message> raw = messages.messages().withRawResponse().create(firstTurn
                .addMessage(first).addUserMessageOfContentBlockParams(List.of(toolResult(use))).build());

        assertThat(raw.statusCode()).isEqualTo(200);
        assertThat(raw.parse().content().getFirst().isThinking()).isTrue();
        assertThat(String.join("; ", raw.headers().values("x-platform-warnings"))).doesNotContain(WARNING);
        JsonNode sent = lastUpstream(marker);
        assertThat(sent.at("/thinking/type").asText()).isEqualTo("adaptive");
        assertThat(sent.at("/messages/1/content/0/type").asText()).isEqualTo("thinking");
    }

    static Tool weatherTool() {
        return Tool.builder().name("get_weather").inputSchema(Tool.InputSchema.builder()
                .properties(JsonValue.from(Map.of("city", Map.of("type", "string")))).build()).build();
    }

    static ContentBlockParam toolResult(ToolUseBlock use) {
        return ContentBlockParam.ofToolResult(ToolResultBlockParam.builder().toolUseId(use.id()).content("18C").build());
    }

    /** One chat turn without streaming; returns the assistant message as the caller got it. */
    static JsonNode chatTurn(String model, ArrayNode history) {
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", chatBody(model, history, null, false).toString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.parseOrNull(r.body()).at("/choices/0/message");
    }

    static void answerToolCall(ArrayNode history, JsonNode assistant) {
        history.add(assistant);
        history.addObject().put("role", "tool").put("tool_call_id", assistant.at("/tool_calls/0/id").asText()).put("content", "18C");
    }

    static ObjectNode chatBody(String model, ArrayNode history, ObjectNode options, boolean stream) {
        ObjectNode body = F.objectNode().put("model", model).put("stream", stream);
        body.putArray("tools").addObject().put("type", "function").putObject("function").put("name", "get_weather")
                .set("parameters", Json.parseOrNull("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}"));
        if (options != null) body.set("platform_options", options);
        body.set("messages", history.deepCopy());
        return body;
    }

    /** The assistant's text of a chat answer, whole or streamed. */
    static String answer(HttpResponse<String> r, boolean stream) {
        if (!stream) return Json.parseOrNull(r.body()).at("/choices/0/message/content").asText();
        StringBuilder text = new StringBuilder();
        for (String line : r.body().split("\n")) {
            if (!line.startsWith("data: {")) continue;
            text.append(Json.parseOrNull(line.substring(6)).at("/choices/0/delta/content").asText(""));
        }
        return text.toString();
    }

    static JsonNode lastUpstream(String marker) {
        ReceivedRequest r = h.sim.received().stream().filter(x -> x.body().contains(marker)).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no upstream request with " + marker));
        return Json.parseOrNull(r.body());
    }
}
