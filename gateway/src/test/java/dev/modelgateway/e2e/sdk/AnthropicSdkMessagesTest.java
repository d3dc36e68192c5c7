package dev.modelgateway.e2e.sdk;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.JsonValue;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.BadRequestException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Base64ImageSource;
import com.anthropic.models.messages.CacheControlEphemeral;
import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.ContentBlockParam;
import com.anthropic.models.messages.ImageBlockParam;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.models.messages.StopReason;
import com.anthropic.models.messages.TextBlockParam;
import com.anthropic.models.messages.ThinkingConfigAdaptive;
import com.anthropic.models.messages.ThinkingConfigDisabled;
import com.anthropic.models.messages.Tool;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The messages protocol through the official anthropic-java SDK (bearer-token option), natively to vendor A. */
@ExtendWith(PerClassGateway.class)
@E2e
class AnthropicSdkMessagesTest {
    static GatewayHarness h;
    static AnthropicClient client;

    static MessageCreateParams.Builder hello(String model) {
        return MessageCreateParams.builder().model(model).maxTokens(1024).addUserMessage("Hello gateway");
    }

    @Test
    void nonStreamingMessageKeepsVendorIdTypeAndRole() {
        Message m = client.messages().create(hello("platform/vendorA-sonnet-4.5").build());
        assertThat(m.id()).startsWith("msg_");
        assertThat(m._type().toString()).contains("message");
        assertThat(m._role().toString()).contains("assistant");
        assertThat(m.content()).last().satisfies(b -> assertThat(b.text().orElseThrow().text())
                .isEqualTo("Hello from vendorA-sonnet-4.5. You said: Hello gateway"));
        assertThat(m.stopReason()).hasValue(StopReason.END_TURN);
        assertThat(m.usage().outputTokens()).isPositive();
    }

    @Test
    void sonnet5ThinksByDefaultAndStreamsSignedThinking() {
        h.sim.clearReceived();
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(hello("platform/vendorA-sonnet-5").build())) {
            s.stream().forEach(acc::accumulate);
        }
        Message m = acc.message();
        ContentBlock first = m.content().get(0);
        assertThat(first.isThinking()).isTrue();
        assertThat(first.asThinking().signature()).isNotBlank();
        assertThat(m.content().get(1).asText().text()).isEqualTo("Hello from vendorA-sonnet-5. You said: Hello gateway");
        JsonNode upstream = Json.parseOrNull(h.sim.received().getLast().body());
        assertThat(upstream.at("/thinking/type").asText()).isEqualTo("adaptive");
        assertThat(upstream.path("model").asText()).isEqualTo("vendorA-sonnet-5");
    }

    @Test
    void sonnet5ThinkingCanBeDisabled() {
        Message m = client.messages().create(hello("platform/vendorA-sonnet-5")
                .thinking(ThinkingConfigDisabled.builder().build()).build());
        assertThat(m.content()).noneMatch(ContentBlock::isThinking);
    }

    @Test
    void opusThinksOnlyWhenAskedWithAdaptive() {
        Message off = client.messages().create(hello("platform/vendorA-opus-4.8").build());
        assertThat(off.content()).noneMatch(ContentBlock::isThinking);
        Message on = client.messages().create(hello("platform/vendorA-opus-4.8")
                .thinking(ThinkingConfigAdaptive.builder().build())
                .putAdditionalBodyProperty("output_config", JsonValue.from(Map.of("effort", "high"))).build());
        assertThat(on.content().get(0).isThinking()).isTrue();
    }

    @Test
    void thinkingSignatureSurvivesTheNextTurn() {
        Message first = client.messages().create(hello("platform/vendorA-sonnet-5").build());
        Message second = client.messages().create(MessageCreateParams.builder().model("platform/vendorA-sonnet-5").maxTokens(1024)
                .addUserMessage("Hello gateway")
                .addMessage(first)
                .addUserMessage("And again")
                .build());
        assertThat(second.content()).anyMatch(ContentBlock::isText);
    }

    @Test
    void enabledThinkingWithBudgetPassesThroughOnOlderModels() {
        h.sim.clearReceived();
        Message m = client.messages().create(hello("platform/vendorA-sonnet-4.5").maxTokens(4096).enabledThinking(2048).build());
        assertThat(m.content().get(0).isThinking()).isTrue();
        JsonNode upstream = Json.parseOrNull(h.sim.received().getLast().body());
        assertThat(upstream.at("/thinking/type").asText()).isEqualTo("enabled");
        assertThat(upstream.at("/thinking/budget_tokens").asInt()).isEqualTo(2048);
    }

    @Test
    void imagesPassThroughAsSent() {
        h.sim.clearReceived();
        Message m = client.messages().create(MessageCreateParams.builder().model("platform/vendorA-sonnet-4.5").maxTokens(256)
                .addUserMessageOfContentBlockParams(List.of(
                        ContentBlockParam.ofImage(ImageBlockParam.builder()
                                .source(Base64ImageSource.builder()
                                        .mediaType(Base64ImageSource.MediaType.IMAGE_PNG)
                                        .data("iVBORw0KGgo=").build()).build()),
                        ContentBlockParam.ofText(TextBlockParam.builder().text("What is this?").build())))
                .build());
        assertThat(m.content().getLast().asText().text()).contains("1 image");
        JsonNode upstream = Json.parseOrNull(h.sim.received().getLast().body());
        assertThat(upstream.at("/messages/0/content/0/source/data").asText()).isEqualTo("iVBORw0KGgo=");
    }

    @Test
    void enabledThinkingOnOpus48IsRefused() {
        assertThatThrownBy(() -> client.messages().create(hello("platform/vendorA-opus-4.8").enabledThinking(2048).build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("adaptive");
    }

    @Test
    void streamedToolUseArrivesWhole() {
        Tool tool = Tool.builder().name("get_weather").description("Weather for a city")
                .inputSchema(Tool.InputSchema.builder()
                        .properties(JsonValue.from(Map.of("city", Map.of("type", "string"))))
                        .required(List.of("city")).build())
                .build();
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(
                hello("platform/vendorA-sonnet-4.5").addTool(tool).build())) {
            s.stream().forEach(acc::accumulate);
        }
        Message m = acc.message();
        var use = m.content().stream().filter(ContentBlock::isToolUse).findFirst().orElseThrow().asToolUse();
        assertThat(use.name()).isEqualTo("get_weather");
        assertThat(use._input().toString()).contains("sim");
        assertThat(m.stopReason()).hasValue(StopReason.TOOL_USE);
    }

    @Test
    void cacheControlPassesThroughAndCacheUsageComesBack() {
        String longSystem = "You are a meticulous assistant. ".repeat(400);
        MessageCreateParams params = hello("platform/vendorA-sonnet-4.5")
                .systemOfTextBlockParams(List.of(TextBlockParam.builder().text(longSystem)
                        .cacheControl(CacheControlEphemeral.builder().ttl(CacheControlEphemeral.Ttl.TTL_1H).build()).build()))
                .build();
        Message first = client.messages().create(params);
        Message second = client.messages().create(params);
        assertThat(first.usage().cacheCreationInputTokens().orElse(0L) + second.usage().cacheReadInputTokens().orElse(0L)).isPositive();
        assertThat(second.usage().cacheReadInputTokens()).hasValueSatisfying(v -> assertThat(v).isPositive());
        assertThat(h.sim.received().getLast().body()).contains("cache_control").contains("1h");
    }

    private static final String HI = "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":64,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]";

    @Test
    void anAllowedBetaHeaderIsForwarded() {
        h.sim.clearReceived();
        String betas = "interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14";
        var r = h.postAuthed("/api/v1/messages?beta=true", HI + "}", "anthropic-beta", betas);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(h.sim.received().getLast().headers()).containsEntry("anthropic-beta", betas);
        assertThat(h.sim.received().getLast().headers()).containsEntry("x-api-key", "sim-anthropic-key");
    }

    /** The 1M-context window, code execution and the MCP connector: nothing in the price book prices them. */
    @Test
    void anUnpricedBetaIsRefusedByName() {
        h.sim.clearReceived();
        for (String path : List.of("/api/v1/messages", "/api/v1/messages/count_tokens")) {
            var r = h.postAuthed(path, HI + "}", "anthropic-beta", "interleaved-thinking-2025-05-14, context-1m-2025-08-07");
            assertThat(r.statusCode()).as(path).isEqualTo(400);
            JsonNode error = Json.parseOrNull(r.body());
            assertThat(error.at("/error/type").asText()).isEqualTo("invalid_request_error");
            assertThat(error.at("/error/message").asText()).contains("'context-1m-2025-08-07'").contains("anthropic-beta");
        }
        assertThat(h.sim.received()).isEmpty();
    }

    @Test
    void billedServerFeaturesNeedTheirBetaAllowedEvenBehindAnAllowedOne() {
        h.sim.clearReceived();
        var code = h.postAuthed("/api/v1/messages", HI + ",\"tools\":[{\"type\":\"code_execution_20250825\",\"name\":\"code_execution\"}]}",
                "anthropic-beta", "advanced-tool-use-2025-11-20");
        assertThat(code.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(code.body()).at("/error/message").asText()).startsWith("tools[0].type: the code execution tool");
        var mcp = h.postAuthed("/api/v1/messages", HI + ",\"mcp_servers\":[{\"type\":\"url\",\"url\":\"https://mcp.example.com\","
                + "\"name\":\"x\"}]}");
        assertThat(mcp.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(mcp.body()).at("/error/message").asText()).startsWith("mcp_servers: the MCP connector");
        assertThat(h.sim.received()).isEmpty();
    }

    /** The gateway offers no Files API: a file id could only be one of the operator's account's files. */
    @Test
    void aFileIdIsRefusedOnEveryPathToVendorA() {
        h.sim.clearReceived();
        String document = "{\"type\":\"document\",\"source\":{\"type\":\"file\",\"file_id\":\"file_011CNha8iCJcU1wXNR6q4V8w\"}}";
        var messages = h.postAuthed("/api/v1/messages", "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":64,"
                + "\"messages\":[{\"role\":\"user\",\"content\":[" + document + ",{\"type\":\"text\",\"text\":\"x\"}]}]}");
        assertThat(messages.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(messages.body()).at("/error/message").asText()).startsWith("messages[0].content[0].source.file_id:");
        var counted = h.postAuthed("/api/v1/messages/count_tokens", "{\"model\":\"platform/vendorA-sonnet-4.5\","
                + "\"messages\":[{\"role\":\"user\",\"content\":[" + document + "]}]}");
        assertThat(counted.statusCode()).isEqualTo(400);
        // translated: a chat completions file part to a vendor A model
        var chat = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorA-sonnet-4.5\",\"messages\":[{\"role\":\"user\","
                + "\"content\":[{\"type\":\"file\",\"file\":{\"file_id\":\"file_011CNha8iCJcU1wXNR6q4V8w\"}}]}]}");
        assertThat(chat.statusCode()).as(chat.body()).isEqualTo(400);
        assertThat(Json.parseOrNull(chat.body()).at("/error/message").asText()).contains("Files API");
        assertThat(h.sim.received()).isEmpty();
    }
}
