package dev.modelgateway.e2e.translation;

import com.anthropic.client.AnthropicClient;
import com.anthropic.errors.RateLimitException;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.Tool;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.ReasoningEffort;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import dev.modelgateway.e2e.ChatTurn;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Regression cases from translation-notes §13 through the real gateway: parallel calls, truncation, errors, redaction. */
@ExtendWith(PerClassGateway.class)
@E2e
class TranslationEdgeCasesTest {
    static GatewayHarness h;
    static OpenAIClient chat;
    static AnthropicClient messages;

    static ChatCompletionFunctionTool chatTool(String name) {
        return ChatCompletionFunctionTool.builder().function(FunctionDefinition.builder().name(name)
                .parameters(FunctionParameters.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of("n", Map.of("type", "integer"))))
                        .build())
                .build()).build();
    }

    static Tool messagesTool(String name) {
        return Tool.builder().name(name).inputSchema(Tool.InputSchema.builder()
                .properties(com.anthropic.core.JsonValue.from(Map.of("n", Map.of("type", "integer")))).build()).build();
    }

    static Stream<Arguments> chatTargets() {
        return Stream.of("vendorA-sonnet-5", "platform/vendorA-sonnet-4.5", "vendorC-pro-3")
                .flatMap(m -> Stream.of(Arguments.of(m, false), Arguments.of(m, true)));
    }

    static Stream<Arguments> messagesTargets() {
        return Stream.of("platform/vendorB-5.5", "vendorC-flash-3", "vendorD-plus-latest")
                .flatMap(m -> Stream.of(Arguments.of(m, false), Arguments.of(m, true)));
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("chatTargets")
    void parallelToolCallsToChat(String model, boolean stream) {
        ChatTurn t = ChatTurn.run(chat, ChatToOtherVendorsTest.ask(model, "Both [[sim:parallel_tools=2]]")
                .addTool(chatTool("first")).addTool(chatTool("second")), stream);
        assertThat(t.toolCalls()).extracting(c -> c.function().name()).containsExactly("first", "second");
        assertThat(t.toolCalls()).extracting(c -> Json.parseOrNull(c.function().arguments()).path("n").asInt()).containsExactly(1, 1);
        assertThat(t.toolCalls().get(0).id()).isNotEqualTo(t.toolCalls().get(1).id());
        assertThat(t.choice().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("messagesTargets")
    void parallelToolCallsToMessages(String model, boolean stream) {
        Message m = MessagesToOtherVendorsTest.run(messages, MessagesToOtherVendorsTest.ask(model, "Both [[sim:parallel_tools=2]]")
                .addTool(messagesTool("first")).addTool(messagesTool("second")), stream);
        var uses = m.content().stream().filter(ContentBlock::isToolUse).map(ContentBlock::asToolUse).toList();
        assertThat(uses).extracting(u -> u.name()).containsExactly("first", "second");
        assertThat(uses).extracting(u -> u._input().convert(Map.class)).containsExactly(Map.of("n", 1), Map.of("n", 1));
        assertThat(m.stopReason()).hasValue(StopReason.TOOL_USE);
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("chatTargets")
    void truncationIsLengthForChat(String model, boolean stream) {
        ChatTurn t = ChatTurn.run(chat, ChatToOtherVendorsTest.ask(model, "Hello gateway, a long answer please")
                .reasoningEffort(ReasoningEffort.NONE).maxCompletionTokens(3), stream);
        assertThat(t.choice().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.LENGTH);
        assertThat(t.content()).isNotBlank().hasSizeLessThanOrEqualTo(12);
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("messagesTargets")
    void truncationIsMaxTokensForMessages(String model, boolean stream) {
        Message m = MessagesToOtherVendorsTest.run(messages, MessageCreateParams.builder().model(model)
                .maxTokens(3).addUserMessage("Hello gateway, a long answer please"), stream);
        assertThat(m.stopReason()).hasValue(StopReason.MAX_TOKENS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"platform/vendorB-5.5", "vendorC-flash-3", "vendorD-plus-latest"})
    void vendorRateLimitBecomesAnthropicRateLimitError(String model) {
        assertThatThrownBy(() -> messages.messages().create(MessagesToOtherVendorsTest.ask(model,
                "[[sim:status=429;retry_after=7]]").build()))
                .isInstanceOfSatisfying(RateLimitException.class, e -> assertThat(e.headers().values("retry-after")).contains("7"));
    }

    @Test
    void midStreamErrorsArriveInTheCallersProtocol() {
        // Events are paced so that output reaches the caller before the error: an error before the first
        // byte is retried instead (docs/platform-options.md).
        var chatStream = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"vendorA-sonnet-5\",\"stream\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:error_after=4;chunk_delay_ms=30]] Hello\"}]}");
        assertThat(chatStream.statusCode()).isEqualTo(200);
        String lastData = chatStream.body().lines().filter(l -> l.startsWith("data:")).reduce((a, b) -> b).orElseThrow();
        assertThat(Json.parseOrNull(lastData.substring(5)).at("/error/message").asText()).isNotBlank();
        assertThat(chatStream.body()).doesNotContain("[DONE]");

        var messagesStream = h.postAuthed("/api/v1/messages", "{\"model\":\"platform/vendorB-5.5\",\"max_tokens\":64,\"stream\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:error_after=3;chunk_delay_ms=30]] Hello\"}]}");
        assertThat(messagesStream.statusCode()).isEqualTo(200);
        assertThat(messagesStream.body()).contains("event: error").doesNotContain("event: message_stop");
    }

    @Test
    void redactedThinkingRoundTripsThroughChat() {
        ChatTurn first = ChatTurn.run(chat, ChatToOtherVendorsTest.ask("vendorA-sonnet-5", "Hello [[sim:redacted]]")
                .reasoningEffort(ReasoningEffort.LOW), true);
        assertThat(first.thinkingBlocks()).hasSize(1);
        assertThat(first.thinkingBlocks().getFirst().convert(Map.class)).containsEntry("type", "redacted_thinking");
        ChatTurn second = ChatTurn.run(chat, ChatToOtherVendorsTest.ask("vendorA-sonnet-5", "Hello [[sim:redacted]]")
                .addMessage(first.asAssistantTurn()).addUserMessage("Again"), false);
        assertThat(second.content()).endsWith("You said: Again");
        JsonNode replayed = Json.parseOrNull(h.sim.received().getLast().body());
        assertThat(replayed.at("/messages/1/content/0/type").asText()).isEqualTo("redacted_thinking");
    }
}
