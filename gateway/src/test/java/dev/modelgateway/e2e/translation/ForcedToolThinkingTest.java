package dev.modelgateway.e2e.translation;

import com.anthropic.client.AnthropicClient;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolChoiceAny;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionNamedToolChoice;
import com.openai.models.chat.completions.ChatCompletionToolChoiceOption;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 5: vendorA-sonnet-5 thinks by default, and vendor A refuses thinking with a forced tool. A caller
 * that forces a tool without asking for reasoning (LangChain's {@code withStructuredOutput} with function calling)
 * gets its tool call on every inbound protocol: the gateway does not add its default thinking then, and never
 * sends the refused combination upstream. A caller who asks for both gets vendor A's own 400 whichever vendor
 * serves the call.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class ForcedToolThinkingTest {
    static GatewayHarness h;
    static OpenAIClient chat;
    static AnthropicClient messages;

    static ChatCompletionFunctionTool extractTool() {
        return ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name("extract")
                .parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("city", Map.of("type", "string"))))
                        .build())
                .build()).build();
    }

    static JsonNode upstream(String marker) {
        ReceivedRequest r = h.sim.received().stream().filter(x -> x.body().contains(marker)).reduce((a, b) -> b)
                .orElseThrow(() -> new AssertionError("no upstream request with " + marker));
        return Json.parseOrNull(r.body());
    }

    @ParameterizedTest(name = "chat tool_choice {0}")
    @ValueSource(strings = {"required", "named"})
    void chatForcingAToolOnSonnet5GetsTheCallWithoutDefaultThinking(String how) {
        String marker = "chat-forced-" + how;
        ChatCompletionCreateParams.Builder params = ChatCompletionCreateParams.builder().model("vendorA-sonnet-5")
                .addUserMessage("Paris is nice " + marker).addTool(extractTool());
        if (how.equals("required")) params.toolChoice(ChatCompletionToolChoiceOption.Auto.REQUIRED);
        else params.toolChoice(ChatCompletionNamedToolChoice.builder()
                .function(ChatCompletionNamedToolChoice.Function.builder().name("extract").build()).build());
        ChatCompletion c = chat.chat().completions().create(params.build());
        assertThat(c.choices().getFirst().message().toolCalls().orElseThrow().getFirst().asFunction().function().name())
                .isEqualTo("extract");
        JsonNode sent = upstream(marker);
        assertThat(sent.has("thinking")).as(sent.toString()).isFalse();
        assertThat(sent.path("tool_choice").path("type").asText()).isIn("any", "tool");
    }

    @Test
    void responsesForcingAToolOnSonnet5GetsTheCall() {
        String marker = "responses-forced";
        HttpResponse<String> r = h.postAuthed("/api/v1/responses", "{\"model\":\"vendorA-sonnet-5\",\"input\":\"Paris " + marker
                + "\",\"tools\":[{\"type\":\"function\",\"name\":\"extract\",\"parameters\":{\"type\":\"object\"}}],\"tool_choice\":\"required\"}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(r.body()).at("/output/0/type").asText()).isEqualTo("function_call");
        assertThat(upstream(marker).has("thinking")).isFalse();
    }

    @Test
    void messagesForcingAToolOnSonnet5NativeSendsNoThinkingUpstream() {
        String marker = "messages-forced";
        Message m = messages.messages().create(MessageCreateParams.builder().model("platform/vendorA-sonnet-5").maxTokens(256)
                .addUserMessage("Paris " + marker)
                .addTool(Tool.builder().name("extract").inputSchema(Tool.InputSchema.builder().build()).build())
                .toolChoice(ToolChoiceAny.builder().build()).build());
        assertThat(m.content()).anySatisfy(b -> assertThat(b.isToolUse()).isTrue());
        assertThat(m.content()).noneSatisfy(b -> assertThat(b.isThinking()).isTrue());
        assertThat(upstream(marker).has("thinking")).isFalse();
    }

    @Test
    void withoutAForcedToolSonnet5StillThinksByDefault() {
        String marker = "default-thinking";
        chat.chat().completions().create(ChatCompletionCreateParams.builder().model("vendorA-sonnet-5")
                .addUserMessage("Paris " + marker).addTool(extractTool()).build());
        assertThat(upstream(marker).path("thinking").path("type").asText()).isEqualTo("adaptive");
    }

    /** Thinking asked for explicitly together with a forced tool: vendor A's refusal, on its native path and translated. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"platform/vendorA-sonnet-5", "platform/vendorB-5.5", "vendorC-pro-3", "vendorD-plus-latest"})
    void messagesAskingForThinkingAndAForcedToolIsVendorAsOwn400Everywhere(String model) {
        String marker = "both-" + model;
        HttpResponse<String> r = h.postAuthed("/api/v1/messages", "{\"model\":\"" + model + "\",\"max_tokens\":256,"
                + "\"thinking\":{\"type\":\"adaptive\"},\"tool_choice\":{\"type\":\"any\"},"
                + "\"tools\":[{\"name\":\"extract\",\"input_schema\":{\"type\":\"object\"}}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"" + marker + "\"}]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(Json.parseOrNull(r.body()).at("/error/message").asText()).contains("tool_choice");
        assertThat(h.sim.received()).noneMatch(x -> x.body().contains(marker));
    }
}
