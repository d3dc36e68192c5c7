package dev.modelgateway.e2e.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.errors.UnauthorizedException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.ResponseFormatJsonObject;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionContentPart;
import com.openai.models.chat.completions.ChatCompletionContentPartImage;
import com.openai.models.chat.completions.ChatCompletionContentPartText;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.e2e.Samples;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Chat completions through the official openai-java SDK, natively to vendors B and D. */
@ExtendWith(PerClassGateway.class)
@E2e
class OpenAiSdkChatTest {
    static GatewayHarness h;
    static OpenAIClient client;

    static ChatCompletionCreateParams.Builder hello(String model) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage("Hello gateway");
    }

    @Test
    void nonStreamingAnswerToVendorB() {
        ChatCompletion c = client.chat().completions().create(hello("platform/vendorB-5.5").build());
        assertThat(c.choices()).hasSize(1);
        assertThat(c.choices().get(0).message().content()).hasValue("Hello from vendorB-5.5. You said: Hello gateway");
        assertThat(c.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
        assertThat(c.id()).isNotBlank();
        assertThat(c.usage()).isPresent();
        assertThat(c.usage().get().completionTokens()).isPositive();
    }

    @Test
    void streamingWithUsageAccumulates() {
        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        long usageChunks = 0;
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(hello("platform/vendorB-5.4")
                .streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build()).build())) {
            for (ChatCompletionChunk chunk : (Iterable<ChatCompletionChunk>) s.stream()::iterator) {
                acc.accumulate(chunk);
                if (chunk.usage().isPresent()) usageChunks++;
            }
        }
        ChatCompletion c = acc.chatCompletion();
        assertThat(c.choices().get(0).message().content()).hasValue("Hello from vendorB-5.4. You said: Hello gateway");
        assertThat(usageChunks).isEqualTo(1);
        assertThat(c.usage().orElseThrow().totalTokens()).isPositive();
    }

    @Test
    void streamingWithoutUsageRequestGetsNoUsageChunkButGatewayAskedUpstream() {
        h.sim.clearReceived();
        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        long usageChunks = 0;
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(hello("platform/vendorB-5.4").build())) {
            for (ChatCompletionChunk chunk : (Iterable<ChatCompletionChunk>) s.stream()::iterator) {
                acc.accumulate(chunk);
                if (chunk.usage().isPresent()) usageChunks++;
            }
        }
        assertThat(acc.chatCompletion().choices().get(0).message().content()).hasValueSatisfying(t -> assertThat(t).contains("Hello from"));
        assertThat(usageChunks).isZero();
        JsonNode upstream = Json.parseOrNull(h.sim.received().getLast().body());
        assertThat(upstream.at("/stream_options/include_usage").asBoolean()).isTrue();
    }

    @Test
    void toolCallsStreamAndNot() {
        ChatCompletionFunctionTool tool = Samples.WEATHER;
        ChatCompletion c = client.chat().completions().create(hello("platform/vendorB-5.5").addTool(tool).build());
        var call = c.choices().get(0).message().toolCalls().orElseThrow().get(0).asFunction();
        assertThat(call.function().name()).isEqualTo("get_weather");
        assertThat(Json.parseOrNull(call.function().arguments()).path("city").asText()).isEqualTo("sim");
        assertThat(c.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);

        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(
                hello("platform/vendorB-5.5").addTool(tool).build())) {
            s.stream().forEach(acc::accumulate);
        }
        var streamed = acc.chatCompletion().choices().get(0).message().toolCalls().orElseThrow().get(0).asFunction();
        assertThat(streamed.function().name()).isEqualTo("get_weather");
        assertThat(Json.parseOrNull(streamed.function().arguments()).path("city").asText()).isEqualTo("sim");
    }

    @Test
    void imagesAndResponseFormatPassThrough() {
        h.sim.clearReceived();
        ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder()
                .model("platform/vendorB-5.5")
                .addUserMessageOfArrayOfContentParts(List.of(
                        ChatCompletionContentPart.ofText(ChatCompletionContentPartText.builder().text("What is this?").build()),
                        ChatCompletionContentPart.ofImageUrl(ChatCompletionContentPartImage.builder().imageUrl(
                                ChatCompletionContentPartImage.ImageUrl.builder().url("data:image/png;base64,iVBORw0KGgo=").build()).build())))
                .responseFormat(ResponseFormatJsonObject.builder().build())
                .build());
        assertThat(c.choices().get(0).message().content().orElseThrow()).startsWith("{");
        JsonNode upstream = Json.parseOrNull(h.sim.received().getLast().body());
        assertThat(upstream.at("/messages/0/content/1/image_url/url").asText()).startsWith("data:image/png;base64,");
        assertThat(upstream.at("/response_format/type").asText()).isEqualTo("json_object");
    }

    @Test
    void platformOptionsAsExtraBodyFieldAreAccepted() {
        ChatCompletion c = client.chat().completions().create(hello("platform/vendorB-5.5")
                .putAdditionalBodyProperty("platform_options", JsonValue.from(Map.of(
                        "timeout", 30, "max_retries", 2, "fallbacks", List.of("platform/vendorB-5.4"))))
                .build());
        assertThat(c.choices().get(0).message().content()).isPresent();
    }

    @Test
    void vendorDReasoningContentIsRelayed() {
        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        StringBuilder reasoning = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(hello("vendorD-plus-latest")
                .putAdditionalBodyProperty("enable_thinking", JsonValue.from(true)).build())) {
            s.stream().forEach(chunk -> {
                acc.accumulate(chunk);
                chunk.choices().forEach(ch -> {
                    JsonValue r = ch.delta()._additionalProperties().get("reasoning_content");
                    if (r != null && r.asString().isPresent()) reasoning.append(r.asString().get());
                });
            });
        }
        assertThat(reasoning.toString()).isNotBlank();
        assertThat(acc.chatCompletion().choices().get(0).message().content()).hasValue("Hello from vendorD-plus-latest. You said: Hello gateway");
    }

    @Test
    void sdkSeesTypedErrors() {
        assertThatThrownBy(() -> client.chat().completions().create(hello("vendorB-6").build()))
                .isInstanceOf(NotFoundException.class).hasMessageContaining("platform/vendorB-6-astra");
        assertThatThrownBy(() -> client.chat().completions().create(hello("platform/vendorB-6-sol").temperature(0.3).build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("Responses API");
        OpenAIClient wrong = h.openai("pk-wrong");
        assertThatThrownBy(() -> wrong.chat().completions().create(hello("platform/vendorB-5.5").build()))
                .isInstanceOf(UnauthorizedException.class);
    }

    @Test
    void upstreamRateLimitReachesTheCallerWithRetryAfter() {
        var r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"max_retries\":1},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:status=429;retry_after=1;retry_after_ms=50]]\"}]}");
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("retry-after")).isPresent();
        assertThat(r.headers().firstValue("x-platform-attempts")).hasValue("2");
        assertThat(Json.parseOrNull(r.body()).at("/error/message").asText()).isNotBlank();
    }
}
