package dev.modelgateway.e2e.routing;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.RateLimitException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.errors.InternalServerException;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** platform_options through the official SDKs (their own retries off): what a migrating client sees. */
@ExtendWith(PerClassGateway.class)
@E2e
class PlatformOptionsSdkTest {
    static GatewayHarness h;
    static OpenAIClient openai;
    static AnthropicClient anthropic;

    static String directive(String faults) {
        return "[[sim:" + faults + ";id=" + UUID.randomUUID().toString().substring(0, 8) + "]] Hello";
    }

    static ChatCompletionCreateParams.Builder chat(String model, String text, Map<String, Object> options) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage(text)
                .putAdditionalBodyProperty("platform_options", JsonValue.from(options));
    }

    static MessageCreateParams.Builder messages(String model, String text, Map<String, Object> options) {
        return MessageCreateParams.builder().model(model).maxTokens(256).addUserMessage(text)
                .putAdditionalBodyProperty("platform_options", com.anthropic.core.JsonValue.from(options));
    }

    @Test
    void openAiSdkGetsTheFallbackOfAnotherVendorAfterRateLimits() {
        var raw = openai.chat().completions().withRawResponse().create(chat("platform/vendorB-5.5",
                directive("status=429;times=2"), Map.of("max_retries", 1, "fallbacks", List.of("vendorA-sonnet-5"))).build());
        ChatCompletion c = raw.parse();
        assertThat(c.model()).isEqualTo("vendorA-sonnet-5");
        assertThat(c.choices().get(0).message().content().orElseThrow()).startsWith("Hello from vendorA-sonnet-5");
        assertThat(raw.headers().values("x-platform-fallback")).containsExactly("1");
        assertThat(raw.headers().values("x-platform-attempts")).containsExactly("3");
    }

    @Test
    void openAiSdkStreamsAfterServerErrorsAreRetried() {
        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        try (var s = openai.chat().completions().createStreaming(chat("platform/vendorB-5.4",
                directive("status=500;times=2"), Map.of("max_retries", 3)).build())) {
            s.stream().forEach(acc::accumulate);
        }
        assertThat(acc.chatCompletion().choices().get(0).message().content().orElseThrow()).startsWith("Hello from vendorB-5.4");
    }

    @Test
    void openAiSdkSeesOneServerErrorListingTheAttemptsWhenAllFail() {
        assertThatThrownBy(() -> openai.chat().completions().create(chat("platform/vendorB-5.5",
                directive("status=503"), Map.of("max_retries", 1, "fallbacks", List.of("vendorD-plus-latest"))).build()))
                .isInstanceOfSatisfying(InternalServerException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(502);
                    assertThat(e.getMessage()).contains("after 4 attempts").contains("vendorD-plus-latest → 503");
                });
    }

    @Test
    void anthropicSdkStreamsFromAVendorBFallback() {
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = anthropic.messages().createStreaming(messages("platform/vendorA-sonnet-4.5",
                directive("status=529;times=2"), Map.of("max_retries", 1, "fallbacks", List.of("platform/vendorB-5.5"))).build())) {
            s.stream().forEach(acc::accumulate);
        }
        Message m = acc.message();
        assertThat(m.content().getLast().asText().text()).startsWith("Hello from vendorB-5.5");
    }

    @Test
    void anthropicSdkSeesRateLimitWithRetryAfterOnceRetriesAreSpent() {
        assertThatThrownBy(() -> anthropic.messages().create(messages("platform/vendorA-sonnet-4.5",
                directive("status=429;retry_after=1;retry_after_ms=30"), Map.of("max_retries", 2)).build()))
                .isInstanceOfSatisfying(RateLimitException.class, e -> {
                    assertThat(e.headers().values("retry-after")).containsExactly("1");
                    assertThat(e.getMessage()).contains("after 3 attempts");
                });
    }
}
