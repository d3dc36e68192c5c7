package dev.modelgateway.e2e.translation;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Base64ImageSource;
import com.anthropic.models.messages.CacheControlEphemeral;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.ImageBlockParam;
import com.anthropic.models.messages.JsonOutputFormat;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.OutputConfig;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.TextBlockParam;
import com.anthropic.models.messages.Tool;
import com.anthropic.models.messages.ToolResultBlockParam;
import com.anthropic.models.messages.ToolUseBlock;
import com.anthropic.models.messages.UrlImageSource;
import com.anthropic.models.messages.Usage;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.e2e.Samples;
import dev.modelgateway.e2e.SimUsage;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
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
 * The messages protocol through anthropic-java (bearer token) to vendors that do not speak it: B (OpenAI
 * chat), C (Gemini), D (Qwen), streamed and not, checked against what the simulator received and reported.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class MessagesToOtherVendorsTest {
    static final List<String> MODELS = List.of("platform/vendorB-5.5", "vendorC-pro-3", "vendorC-flash-3", "vendorD-plus-latest");

    static GatewayHarness h;
    static AnthropicClient client;

    static Stream<Arguments> modelsAndModes() {
        return MODELS.stream().flatMap(m -> Stream.of(Arguments.of(m, false), Arguments.of(m, true)));
    }

    static String vendorOf(String model) {
        return model.contains("vendorB") ? "openai" : model.contains("vendorC") ? "gemini" : "dashscope";
    }

    static MessageCreateParams.Builder ask(String model, String text) {
        return MessageCreateParams.builder().model(model).maxTokens(2048).addUserMessage(text);
    }

    static Message run(MessageCreateParams.Builder params, boolean stream) {
        return run(client, params, stream);
    }

    static Message run(AnthropicClient client, MessageCreateParams.Builder params, boolean stream) {
        if (!stream) return client.messages().create(params.build());
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(params.build())) {
            s.stream().forEach(acc::accumulate);
        }
        return acc.message();
    }

    static String text(Message m) {
        return m.content().stream().filter(ContentBlock::isText).map(b -> b.asText().text()).reduce("", String::concat);
    }

    static ReceivedRequest upstream() {
        return h.sim.received().getLast();
    }

    static JsonNode upstreamBody() {
        return Json.parseOrNull(upstream().body());
    }

    /** Messages usage must be exactly the simulator's own report, in Anthropic terms (input excludes cache). */
    static void assertUsageIsTheSimulators(Message m) {
        SimUsage sim = SimUsage.replay(h, upstream());
        Usage u = m.usage();
        assertThat(u.inputTokens()).as("input_tokens").isEqualTo(sim.uncachedInput());
        assertThat(u.outputTokens()).as("output_tokens").isEqualTo(sim.output());
        assertThat(u.cacheReadInputTokens().orElse(0L)).as("cache_read_input_tokens").isEqualTo(sim.cacheRead());
        assertThat(u.cacheCreationInputTokens().orElse(0L)).as("cache_creation_input_tokens").isEqualTo(sim.cacheWrite());
    }

    static final Tool WEATHER = Tool.builder().name("get_weather").description("Weather for a city")
            .inputSchema(Tool.InputSchema.builder()
                    .properties(JsonValue.from(Map.of("city", Map.of("type", "string"))))
                    .required(List.of("city")).build())
            .build();

    static ContentBlockParam toolResult(ToolUseBlock use, String text) {
        return ContentBlockParam.ofToolResult(ToolResultBlockParam.builder().toolUseId(use.id()).content(text).build());
    }

    static String resultAsSent(String model, String text) {
        return vendorOf(model).equals("gemini") ? "{\"output\":\"" + text + "\"}" : text;
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void answersInMessagesShapeWithTheSimulatorsUsage(String model, boolean stream) {
        Message m = run(ask(model, "Hello gateway"), stream);
        assertThat(m.id()).startsWith("msg_");
        assertThat(text(m)).isEqualTo("Hello from " + model.replace("platform/", "") + ". You said: Hello gateway");
        assertThat(m.stopReason()).hasValue(StopReason.END_TURN);
        assertThat(upstream().vendor()).isEqualTo(vendorOf(model));
        assertUsageIsTheSimulators(m);
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void toolUseThenToolResult(String model, boolean stream) {
        Message first = run(ask(model, "Weather in Paris?").addTool(WEATHER), stream);
        assertThat(first.stopReason()).hasValue(StopReason.TOOL_USE);
        ToolUseBlock use = first.content().stream().filter(ContentBlock::isToolUse).findFirst().orElseThrow().asToolUse();
        assertThat(use.name()).isEqualTo("get_weather");
        assertThat(use.id()).matches("[a-zA-Z0-9_-]+");
        assertThat(use._input().convert(Map.class)).isEqualTo(Map.of("city", "sim"));
        assertUsageIsTheSimulators(first);

        Message second = run(ask(model, "Weather in Paris?").addTool(WEATHER).addMessage(first)
                .addUserMessageOfContentBlockParams(List.of(toolResult(use, "18 degrees, sunny"))), stream);
        assertThat(text(second)).isEqualTo("Tool result received: " + resultAsSent(model, "18 degrees, sunny"));
        assertThat(second.stopReason()).hasValue(StopReason.END_TURN);
        assertUsageIsTheSimulators(second);
    }

    /**
     * Thinking: B reasons without showing it (reasoning_effort), C returns thought parts with signatures that
     * must come back on the next turn, D returns unsigned reasoning_content as thinking blocks.
     */
    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void thinkingWithToolsSurvivesTheRoundTrip(String model, boolean stream) {
        MessageCreateParams.Builder ask = ask(model, "Think, then check the weather").addTool(WEATHER).enabledThinking(4096);
        Message first = run(ask, stream);
        JsonNode sent = upstreamBody();
        switch (vendorOf(model)) {
            case "openai" -> {
                assertThat(sent.path("reasoning_effort").asText()).isEqualTo("medium");
                assertThat(first.content()).noneMatch(ContentBlock::isThinking);
            }
            case "gemini" -> {
                assertThat(sent.at("/generationConfig/thinkingConfig/includeThoughts").asBoolean()).isTrue();
                assertThat(first.content().getFirst().asThinking().thinking()).startsWith("Let me think about");
            }
            default -> {
                assertThat(sent.path("enable_thinking").asBoolean()).isTrue();
                assertThat(sent.path("thinking_budget").asInt()).isEqualTo(4096);
                assertThat(first.content().getFirst().asThinking().thinking()).isNotBlank();
            }
        }
        ToolUseBlock use = first.content().stream().filter(ContentBlock::isToolUse).findFirst().orElseThrow().asToolUse();
        assertUsageIsTheSimulators(first);

        Message second = run(ask.addMessage(first).addUserMessageOfContentBlockParams(List.of(toolResult(use, "rain"))), stream);
        assertThat(text(second)).isEqualTo("Tool result received: " + resultAsSent(model, "rain"));
        JsonNode replayed = upstreamBody();
        switch (vendorOf(model)) {
            case "gemini" -> assertThat(replayed.at("/contents/1/parts").findParent("functionCall")
                    .path("thoughtSignature").asText()).isNotBlank();
            case "dashscope" -> assertThat(replayed.at("/messages/1/reasoning_content").asText())
                    .isEqualTo(first.content().getFirst().asThinking().thinking());
            default -> assertThat(replayed.at("/messages/1/tool_calls/0/id").asText()).isEqualTo(use.id());
        }
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void imagesAsBase64AndAsUrl(String model, boolean stream) {
        String url = h.sim.baseUrl() + "/_sim/files/sim.png";
        Message m = run(MessageCreateParams.builder().model(model).maxTokens(1024).addUserMessageOfContentBlockParams(List.of(
                ContentBlockParam.ofText(TextBlockParam.builder().text("Compare these").build()),
                ContentBlockParam.ofImage(ImageBlockParam.builder().source(Base64ImageSource.builder()
                        .mediaType(Base64ImageSource.MediaType.IMAGE_PNG).data(Samples.TINY_PNG).build()).build()),
                ContentBlockParam.ofImage(ImageBlockParam.builder().source(UrlImageSource.builder().url(url).build()).build()))), stream);
        assertThat(text(m)).endsWith("You said: Compare these I see 2 image(s).");
        JsonNode sent = upstreamBody();
        if (vendorOf(model).equals("gemini")) {
            assertThat(sent.at("/contents/0/parts/1/inlineData/data").asText()).isEqualTo(Samples.TINY_PNG);
            assertThat(sent.at("/contents/0/parts/2/inlineData/mimeType").asText()).isEqualTo("image/png");
            assertThat(Base64.getDecoder().decode(sent.at("/contents/0/parts/2/inlineData/data").asText())).startsWith(0x89, 'P', 'N', 'G');
        } else {
            assertThat(sent.at("/messages/0/content/1/image_url/url").asText()).isEqualTo("data:image/png;base64," + Samples.TINY_PNG);
            assertThat(sent.at("/messages/0/content/2/image_url/url").asText()).isEqualTo(url);
        }
        assertUsageIsTheSimulators(m);
    }

    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void structuredOutput(String model, boolean stream) {
        Message m = run(ask(model, "Weather as JSON").outputConfig(OutputConfig.builder().format(JsonOutputFormat.builder()
                .schema(JsonOutputFormat.Schema.builder()
                        .putAdditionalProperty("type", JsonValue.from("object"))
                        .putAdditionalProperty("properties", JsonValue.from(Map.of(
                                "city", Map.of("type", "string"), "celsius", Map.of("type", "number"))))
                        .putAdditionalProperty("required", JsonValue.from(List.of("city", "celsius")))
                        .putAdditionalProperty("additionalProperties", JsonValue.from(false))
                        .build()).build()).build()), stream);
        JsonNode answer = Json.parseOrNull(text(m));
        assertThat(answer).as(text(m)).isNotNull();
        assertThat(answer.path("city").asText()).isEqualTo("sim");
        assertThat(answer.path("celsius").asInt()).isEqualTo(1);
        JsonNode sent = upstreamBody();
        if (vendorOf(model).equals("gemini")) {
            assertThat(sent.at("/generationConfig/responseJsonSchema/required").toString()).contains("celsius");
        } else {
            assertThat(sent.at("/response_format/type").asText()).isEqualTo("json_schema");
            assertThat(sent.at("/response_format/json_schema/schema/required").toString()).contains("celsius");
        }
        assertUsageIsTheSimulators(m);
    }

    /** A long system prompt with cache_control, asked twice: the second answer reports the cache read. */
    @ParameterizedTest(name = "{0} stream={1}")
    @MethodSource("modelsAndModes")
    void cacheReadsAreReported(String model, boolean stream) {
        String system = "You answer questions about the weather for " + model + " stream=" + stream + ". "
                + "Background: the climate of every European capital in every season. ".repeat(120);
        List<TextBlockParam> sys = List.of(TextBlockParam.builder().text(system)
                .cacheControl(CacheControlEphemeral.builder().build()).build());
        Message warm = run(ask(model, "First question").systemOfTextBlockParams(sys), stream);
        assertThat(text(warm)).contains("First question");
        Message cached = run(ask(model, "Second question").systemOfTextBlockParams(sys), stream);
        assertThat(cached.usage().cacheReadInputTokens().orElse(0L)).isGreaterThanOrEqualTo(1024);
        assertUsageIsTheSimulators(cached);
    }
}
