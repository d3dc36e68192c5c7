package dev.modelgateway.e2e.translation;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.models.ReasoningEffort;
import com.openai.models.ResponseFormatJsonSchema;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionContentPart;
import com.openai.models.chat.completions.ChatCompletionContentPartImage;
import com.openai.models.chat.completions.ChatCompletionContentPartText;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import com.openai.models.completions.CompletionUsage;
import dev.modelgateway.e2e.ChatTurn;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.e2e.Samples;
import dev.modelgateway.e2e.SimUsage;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Chat completions through openai-java to vendors that do not speak it (A: messages, C: Gemini) and to
 * vendor D (natively), streamed and not, checked against what the simulator received and reported.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class ChatToOtherVendorsTest {
    static final List<String> MODELS = List.of("platform/vendorA-sonnet-5", "vendorA-sonnet-5", "platform/vendorA-sonnet-4.5",
            "vendorC-pro-3", "vendorC-flash-3", "vendorD-plus-latest");

    static GatewayHarness h;
    static OpenAIClient client;

    static Stream<Arguments> modelsAndModes() {
        return MODELS.stream().flatMap(m -> Stream.of(Arguments.of(m, false), Arguments.of(m, true)));
    }

    static String upstreamId(String model) {
        return model.replace("platform/", "");
    }

    static String vendorOf(String model) {
        return model.contains("vendorA") ? "anthropic" : model.contains("vendorC") ? "gemini" : "dashscope";
    }

    static ChatCompletionCreateParams.Builder ask(String model, String text) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage(text);
    }

    /** Gemini takes a tool result as an object, text under "output" (which the simulator echoes as JSON). */
    static String resultAsSent(String model, String text) {
        return vendorOf(model).equals("gemini") ? "{\"output\":\"" + text + "\"}" : text;
    }

    /** The last request the gateway sent to the simulator. */
    static ReceivedRequest upstream() {
        return h.sim.received().getLast();
    }

    static JsonNode upstreamBody() {
        return Json.parseOrNull(upstream().body());
    }

    /** Chat usage must be exactly the simulator's own report, in chat terms. */
    static void assertUsageIsTheSimulators(ChatTurn turn) {
        SimUsage sim = SimUsage.replay(h, upstream());
        CompletionUsage u = turn.completion().usage().orElseThrow();
        assertThat(u.promptTokens()).as("prompt_tokens").isEqualTo(sim.prompt());
        assertThat(u.completionTokens()).as("completion_tokens").isEqualTo(sim.output());
        assertThat(u.totalTokens()).isEqualTo(u.promptTokens() + u.completionTokens());
        long cached = u.promptTokensDetails().flatMap(CompletionUsage.PromptTokensDetails::cachedTokens).orElse(0L);
        assertThat(cached).as("cached_tokens").isEqualTo(sim.cacheRead());
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void answersInChatShapeWithTheSimulatorsUsage(String model, boolean stream) {
        ChatTurn turn = ChatTurn.run(client, ask(model, "Hello gateway"), stream);
        assertThat(turn.content()).isEqualTo("Hello from " + upstreamId(model) + ". You said: Hello gateway");
        assertThat(turn.choice().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        assertThat(turn.completion().id()).isNotBlank();
        assertThat(upstream().vendor()).isEqualTo(vendorOf(model));
        assertUsageIsTheSimulators(turn);
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void toolCallThenToolResult(String model, boolean stream) {
        ChatTurn first = ChatTurn.run(client, ask(model, "Weather in Paris?").addTool(Samples.WEATHER), stream);
        assertThat(first.choice().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        var call = first.toolCalls().getFirst();
        assertThat(call.id()).isNotBlank();
        assertThat(call.function().name()).isEqualTo("get_weather");
        assertThat(Json.parseOrNull(call.function().arguments()).path("city").asText()).isEqualTo("sim");
        assertUsageIsTheSimulators(first);

        ChatTurn second = ChatTurn.run(client, ask(model, "Weather in Paris?").addTool(Samples.WEATHER)
                .addMessage(first.asAssistantTurn())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(call.id()).content("18 degrees, sunny").build()), stream);
        assertThat(second.content()).isEqualTo("Tool result received: " + resultAsSent(model, "18 degrees, sunny"));
        assertThat(second.choice().finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        assertUsageIsTheSimulators(second);
    }

    static Stream<Arguments> thinkingModelsAndModes() {
        return modelsAndModes().filter(a -> !a.get()[0].toString().contains("vendorD"));
    }

    /** reasoning_effort → vendor thinking; the signed reasoning comes back and is accepted on the next turn. */
    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("thinkingModelsAndModes")
    void reasoningWithToolsSurvivesTheRoundTrip(String model, boolean stream) {
        ChatTurn first = ChatTurn.run(client, ask(model, "Think, then check the weather").addTool(Samples.WEATHER)
                .reasoningEffort(ReasoningEffort.HIGH), stream);
        JsonNode sent = upstreamBody();
        if (vendorOf(model).equals("anthropic")) {
            assertThat(sent.at("/thinking/type").asText()).isIn("enabled", "adaptive");
        } else {
            assertThat(sent.at("/generationConfig/thinkingConfig/thinkingLevel").asText()).isEqualTo("HIGH");
        }
        assertThat(first.reasoning()).startsWith("Let me think about");
        assertThat(first.toolCalls()).hasSize(1);
        assertThat(first.thinkingBlocks().size() + first.toolCallExtras().size()).as("a replayable signature").isPositive();
        assertUsageIsTheSimulators(first);

        ChatTurn second = ChatTurn.run(client, ask(model, "Think, then check the weather").addTool(Samples.WEATHER)
                .reasoningEffort(ReasoningEffort.HIGH)
                .addMessage(first.asAssistantTurn())
                .addMessage(ChatCompletionToolMessageParam.builder().toolCallId(first.toolCalls().getFirst().id())
                        .content("rain").build()), stream);
        assertThat(second.content()).isEqualTo("Tool result received: " + resultAsSent(model, "rain"));
        JsonNode replayed = upstreamBody();
        if (vendorOf(model).equals("anthropic")) {
            JsonNode thinking = replayed.at("/messages/1/content/0");
            assertThat(thinking.path("type").asText()).isEqualTo("thinking");
            assertThat(thinking.path("signature").asText()).isNotBlank();
            assertThat(replayed.at("/messages/1/content/1/type").asText()).isEqualTo("tool_use");
        } else {
            JsonNode callPart = replayed.at("/contents/1/parts").findParent("functionCall");
            assertThat(callPart.path("thoughtSignature").asText()).isNotBlank();
        }
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void imagesAsBase64AndAsUrl(String model, boolean stream) {
        String url = h.sim.baseUrl() + "/_sim/files/sim.png";
        ChatTurn turn = ChatTurn.run(client, ChatCompletionCreateParams.builder().model(model)
                .addUserMessageOfArrayOfContentParts(List.of(
                        ChatCompletionContentPart.ofText(ChatCompletionContentPartText.builder().text("Compare these").build()),
                        image("data:image/png;base64," + Samples.TINY_PNG),
                        image(url))), stream);
        assertThat(turn.content()).isEqualTo("Hello from " + upstreamId(model) + ". You said: Compare these I see 2 image(s).");
        JsonNode sent = upstreamBody();
        switch (vendorOf(model)) {
            case "anthropic" -> {
                assertThat(sent.at("/messages/0/content/1/source/type").asText()).isEqualTo("base64");
                assertThat(sent.at("/messages/0/content/1/source/data").asText()).isEqualTo(Samples.TINY_PNG);
                assertThat(sent.at("/messages/0/content/2/source/url").asText()).isEqualTo(url);
            }
            case "gemini" -> {
                assertThat(sent.at("/contents/0/parts/1/inlineData/data").asText()).isEqualTo(Samples.TINY_PNG);
                JsonNode fetched = sent.at("/contents/0/parts/2/inlineData");
                assertThat(fetched.path("mimeType").asText()).isEqualTo("image/png");
                assertThat(Base64.getDecoder().decode(fetched.path("data").asText())).startsWith(0x89, 'P', 'N', 'G');
            }
            default -> assertThat(sent.at("/messages/0/content/2/image_url/url").asText()).isEqualTo(url);
        }
        assertUsageIsTheSimulators(turn);
    }

    static ChatCompletionContentPart image(String url) {
        return ChatCompletionContentPart.ofImageUrl(ChatCompletionContentPartImage.builder()
                .imageUrl(ChatCompletionContentPartImage.ImageUrl.builder().url(url).build()).build());
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void jsonSchemaResponseFormat(String model, boolean stream) {
        ChatTurn turn = ChatTurn.run(client, ask(model, "Weather as JSON").responseFormat(ResponseFormatJsonSchema.builder()
                .jsonSchema(ResponseFormatJsonSchema.JsonSchema.builder().name("weather").strict(true)
                        .schema(ResponseFormatJsonSchema.JsonSchema.Schema.builder()
                                .putAdditionalProperty("type", JsonValue.from("object"))
                                .putAdditionalProperty("properties", JsonValue.from(Map.of(
                                        "city", Map.of("type", "string"), "celsius", Map.of("type", "number"))))
                                .putAdditionalProperty("required", JsonValue.from(List.of("city", "celsius")))
                                .putAdditionalProperty("additionalProperties", JsonValue.from(false))
                                .build())
                        .build()).build()), stream);
        JsonNode answer = Json.parseOrNull(turn.content());
        assertThat(answer).as(turn.content()).isNotNull();
        assertThat(answer.path("city").asText()).isEqualTo("sim");
        assertThat(answer.path("celsius").asInt()).isEqualTo(1);
        JsonNode sent = upstreamBody();
        switch (vendorOf(model)) {
            case "anthropic" -> assertThat(sent.at("/output_config/format/schema/required").toString()).contains("celsius");
            case "gemini" -> {
                assertThat(sent.at("/generationConfig/responseMimeType").asText()).isEqualTo("application/json");
                assertThat(sent.at("/generationConfig/responseJsonSchema/required").toString()).contains("celsius");
            }
            default -> assertThat(sent.at("/response_format/type").asText()).isEqualTo("json_schema");
        }
        assertUsageIsTheSimulators(turn);
    }

    /** Implicit caching (C, D) and cache_control on a chat part (A): cached tokens come back as the simulator counted them. */
    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void cacheReadsAreReported(String model, boolean stream) {
        String system = "You answer questions about the weather, precisely and briefly. " + model + stream + " ".repeat(1)
                + "Background: ".concat("the climate of every European capital in every season. ".repeat(120));
        var systemPart = ChatCompletionContentPartText.builder().text(system);
        if (vendorOf(model).equals("anthropic")) {
            systemPart.putAdditionalProperty("cache_control", JsonValue.from(Map.of("type", "ephemeral")));
        }
        ChatTurn warm = ChatTurn.run(client, ChatCompletionCreateParams.builder().model(model)
                .addSystemMessageOfArrayOfContentParts(List.of(systemPart.build())).addUserMessage("First question"), stream);
        assertThat(warm.content()).contains("First question");
        ChatTurn cached = ChatTurn.run(client, ChatCompletionCreateParams.builder().model(model)
                .addSystemMessageOfArrayOfContentParts(List.of(systemPart.build())).addUserMessage("Second question"), stream);
        long read = cached.completion().usage().orElseThrow().promptTokensDetails()
                .flatMap(CompletionUsage.PromptTokensDetails::cachedTokens).orElse(0L);
        assertThat(read).isGreaterThanOrEqualTo(1024);
        assertUsageIsTheSimulators(cached);
    }

    @Test
    void vendorAThinkingReplayWithoutToolsIsAccepted() {
        ChatTurn first = ChatTurn.run(client, ask("vendorA-sonnet-5", "Hello gateway"), false);
        assertThat(first.reasoning()).isNotBlank();
        assertThat(first.thinkingBlocks()).hasSize(1);
        ChatTurn second = ChatTurn.run(client, ask("vendorA-sonnet-5", "Hello gateway")
                .addMessage(first.asAssistantTurn()).addUserMessage("And again"), true);
        assertThat(second.content()).isEqualTo("Hello from vendorA-sonnet-5. You said: And again");
        assertThat(upstreamBody().at("/messages/1/content/0/signature").asText())
                .isEqualTo(first.signature(0));
    }
}
