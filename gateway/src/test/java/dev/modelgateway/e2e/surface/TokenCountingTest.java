package dev.modelgateway.e2e.surface;

import com.anthropic.client.AnthropicClient;
import com.anthropic.errors.BadRequestException;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageTokensCount;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Token counting: anthropic-java's countTokens and docs/contract.md §4's /api/count-message-tokens, exact for vendor A, local otherwise. */
@ExtendWith(PerClassGateway.class)
@E2e
class TokenCountingTest {
    static GatewayHarness h;
    static AnthropicClient client;

    @Test
    void sdkCountTokensIsExactForVendorA() {
        h.sim.clearReceived();
        MessageTokensCount n = client.messages().countTokens(MessageCountTokensParams.builder()
                .model("platform/vendorA-sonnet-5").system("Be brief").addUserMessage("Hello gateway, count me").build());
        assertThat(n.inputTokens()).isPositive();
        var upstream = h.sim.received().getLast();
        assertThat(upstream.path()).isEqualTo("/anthropic/v1/messages/count_tokens");
        assertThat(Json.parseOrNull(upstream.body()).path("model").asText()).isEqualTo("vendorA-sonnet-5");
        assertThat(h.ledger("platform/vendorA-sonnet-5", 1)).isNotEmpty();
    }

    @Test
    void sdkCountTokensIsLocalForOtherVendors() {
        h.sim.clearReceived();
        long shortCount = client.messages().countTokens(MessageCountTokensParams.builder()
                .model("vendorC-flash-3").addUserMessage("Hello").build()).inputTokens();
        long longCount = client.messages().countTokens(MessageCountTokensParams.builder()
                .model("vendorC-flash-3").addUserMessage("Hello there, this sentence has quite a few more tokens in it").build()).inputTokens();
        assertThat(shortCount).isPositive();
        assertThat(longCount).isGreaterThan(shortCount);
        assertThat(h.sim.received()).isEmpty();
    }

    @Test
    void specPathTakesAMessagesBody() {
        var r = h.postAuthed("/api/count-message-tokens", "{\"model\":\"platform/vendorB-5.5\",\"max_tokens\":100,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"Hello gateway\"}]}");
        assertThat(r.statusCode()).isEqualTo(200);
        // 3 (message) + 3 (reply priming) + "Hello gateway" in o200k_base (2 tokens).
        assertThat(Json.parseOrNull(r.body()).path("input_tokens").asLong()).isEqualTo(8);
        r = h.postAuthed("/api/count-message-tokens", "{\"model\":\"platform/vendorA-opus-4.8\",\"max_tokens\":100,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"Hello gateway\"}]}");
        assertThat(Json.parseOrNull(r.body()).path("input_tokens").asLong()).isPositive();
        assertThat(Json.parseOrNull(h.sim.received().getLast().body()).has("max_tokens")).isFalse();
    }

    @Test
    void errorsUseTheMessagesShape() {
        var r = h.postAuthed("/api/count-message-tokens", "{\"model\":\"platform/vendorB-5.5\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode body = Json.parseOrNull(r.body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.at("/error/message").asText()).contains("messages");
        assertThatThrownBy(() -> client.messages().countTokens(MessageCountTokensParams.builder()
                .model("platform/text-embedding-3-small").addUserMessage("x").build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("not a chat model");
        assertThat(h.post("/api/count-message-tokens", "{}").statusCode()).isEqualTo(401);
    }
}
