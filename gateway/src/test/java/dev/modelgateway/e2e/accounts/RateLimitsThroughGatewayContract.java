package dev.modelgateway.e2e.accounts;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.HttpResponseFor;
import com.anthropic.errors.RateLimitException;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Requests and tokens per minute through the gateway: {@code x-ratelimit-*} headers on admitted calls,
 * 429 with {@code retry-after} in the caller's protocol shape when refused. Run once per limiter
 * (in-process and Redis).
 */
abstract class RateLimitsThroughGatewayContract extends AccountsContract {
    static final String CHAT_MODEL = "platform/vendorB-5.5";
    static final String MESSAGES_MODEL = "platform/vendorA-sonnet-4.5";

    RateLimitsThroughGatewayContract(Stores stores) {
        super(stores);
    }

    HttpResponse<String> chat(String key, String prompt, int maxTokens) {
        return h.post("/api/v1/chat/completions", "{\"model\":\"" + CHAT_MODEL + "\",\"max_completion_tokens\":" + maxTokens
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}", "authorization", "Bearer " + key);
    }

    HttpResponse<String> messages(String key, String prompt, int maxTokens) {
        return h.post("/api/v1/messages", "{\"model\":\"" + MESSAGES_MODEL + "\",\"max_tokens\":" + maxTokens
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + prompt + "\"}]}", "authorization", "Bearer " + key);
    }

    static String header(HttpResponse<String> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    static long retryAfter(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(429);
        assertThat(header(r, "retry-after-ms")).isNotNull();
        return Long.parseLong(header(r, "retry-after"));
    }

    @Test
    void requestsPerMinuteOverChat() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"rpm-chat\",\"rpm\":3}");
        for (int remaining = 2; remaining >= 0; remaining--) {
            HttpResponse<String> ok = chat(key.secret(), "hi", 64);
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            assertThat(header(ok, "x-ratelimit-limit-requests")).isEqualTo("3");
            assertThat(header(ok, "x-ratelimit-remaining-requests")).isEqualTo(Integer.toString(remaining));
            assertThat(header(ok, "x-ratelimit-reset-requests")).matches("[0-9.]+(ms|s|m)(.*)");
            assertThat(header(ok, "x-ratelimit-limit-tokens")).as("no tpm on this key").isNull();
        }
        HttpResponse<String> refused = chat(key.secret(), "hi", 64);
        // One request comes back every 20 s at 3 per minute.
        assertThat(retryAfter(refused)).isBetween(1L, 20L);
        JsonNode error = Json.parseOrNull(refused.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(error.path("type").asText()).isEqualTo("rate_limit_error");
        assertThat(error.path("message").asText()).contains("3 requests per minute");
        assertThat(header(refused, "x-ratelimit-remaining-requests")).isEqualTo("0");

        JsonNode view = rateLimitView(key.id());
        assertThat(view.at("/requests/limit").asLong()).isEqualTo(3);
        assertThat(view.at("/requests/used").asLong()).isEqualTo(3);
        assertThat(view.at("/requests/remaining").asLong()).isZero();
        assertThat(view.path("tokens").isNull()).isTrue();
    }

    /** The key's entry in {@code GET /admin/rate-limits}. */
    JsonNode rateLimitView(String keyId) {
        for (JsonNode k : admin.get("/api/v1/admin/rate-limits").path("data")) {
            if (k.path("key_id").asText().equals(keyId)) return k;
        }
        throw new AssertionError("no rate-limit entry for " + keyId);
    }

    @Test
    void requestsPerMinuteThroughTheAnthropicSdk() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"rpm-messages\",\"rpm\":2}");
        AnthropicClient client = h.anthropic(key.secret());
        MessageCreateParams params = MessageCreateParams.builder().model(MESSAGES_MODEL).maxTokens(64).addUserMessage("hi").build();
        for (int remaining = 1; remaining >= 0; remaining--) {
            HttpResponseFor<Message> ok = client.messages().withRawResponse().create(params);
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.headers().values("x-ratelimit-limit-requests")).containsExactly("2");
            assertThat(ok.headers().values("x-ratelimit-remaining-requests")).containsExactly(Integer.toString(remaining));
            assertThat(ok.parse().content()).isNotEmpty();
        }
        RateLimitException refused = catchThrowableOfType(RateLimitException.class, () -> client.messages().create(params));
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(Long.parseLong(refused.headers().values("retry-after").getFirst())).isBetween(1L, 30L);
        // The same refusal on the wire: Anthropic's error shape.
        JsonNode body = Json.parseOrNull(messages(key.secret(), "hi", 64).body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(body.at("/error/message").asText()).contains("2 requests per minute");
    }

    @Test
    void perModelLimitOnTopOfTheKeysOwn() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"per-model\",\"rpm\":10,"
                + "\"model_limits\":{\"platform/vendorA-*\":{\"rpm\":1}}}");
        HttpResponse<String> first = messages(key.secret(), "hi", 64);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(header(first, "x-ratelimit-limit-requests")).as("the tighter, per-model scope").isEqualTo("1");
        assertThat(header(first, "x-ratelimit-remaining-requests")).isEqualTo("0");

        HttpResponse<String> refused = messages(key.secret(), "hi", 64);
        assertThat(retryAfter(refused)).isBetween(59L, 60L);
        JsonNode body = Json.parseOrNull(refused.body());
        assertThat(body.at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(body.at("/error/message").asText()).contains("on models 'platform/vendorA-*'");

        // Other models only draw on the key's own 10 per minute (the refusal took nothing).
        HttpResponse<String> other = chat(key.secret(), "hi", 64);
        assertThat(other.statusCode()).isEqualTo(200);
        assertThat(header(other, "x-ratelimit-limit-requests")).isEqualTo("10");
        assertThat(header(other, "x-ratelimit-remaining-requests")).isEqualTo("8");
        JsonNode view = rateLimitView(key.id());
        assertThat(view.at("/model_limits/0/models").asText()).isEqualTo("platform/vendorA-*");
        assertThat(view.at("/model_limits/0/requests/used").asLong()).isEqualTo(1);
    }

    /** About {@code tokens} tokens of prompt (the simulator counts a token per 4 characters). */
    static String prompt(int tokens) {
        return "word ".repeat(tokens * 4 / 5);
    }

    @Test
    void tokensPerMinuteOverMessages() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"tpm-messages\",\"tpm\":1000}");
        // ~1500 tokens: more than a minute's allowance, admitted on a full bucket, leaving a debt.
        HttpResponse<String> ok = messages(key.secret(), prompt(1500), 64);
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        assertThat(header(ok, "x-ratelimit-limit-tokens")).isEqualTo("1000");
        assertThat(header(ok, "x-ratelimit-remaining-tokens")).isEqualTo("0");
        assertThat(header(ok, "x-ratelimit-reset-tokens")).isNotBlank();
        assertThat(header(ok, "x-ratelimit-limit-requests")).as("no rpm on this key").isNull();

        HttpResponse<String> refused = messages(key.secret(), "hi", 64);
        // The actual usage left a debt of ~500 tokens, refilled at 1000 per minute: over 30 s.
        assertThat(retryAfter(refused)).isBetween(31L, 60L);
        JsonNode body = Json.parseOrNull(refused.body());
        assertThat(body.at("/error/type").asText()).isEqualTo("rate_limit_error");
        assertThat(body.at("/error/message").asText()).contains("1000 tokens per minute");
    }

    @Test
    void tokensPerMinuteOverChat() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"tpm-chat\",\"tpm\":2000}");
        // Estimated at admission as request bytes / 4 + the output cap: ~1890 of 2000.
        HttpResponse<String> first = chat(key.secret(), prompt(1800), 64);
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(header(first, "x-ratelimit-limit-tokens")).isEqualTo("2000");
        assertThat(Long.parseLong(header(first, "x-ratelimit-remaining-tokens"))).isBetween(0L, 200L);

        HttpResponse<String> refused = chat(key.secret(), "hi", 500);
        assertThat(retryAfter(refused)).isBetween(1L, 20L);
        JsonNode error = Json.parseOrNull(refused.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(error.path("message").asText()).contains("2000 tokens per minute");
    }

    @Test
    void theTokenEstimateIsCorrectedByTheActualUsage() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"tpm-settle\",\"tpm\":20000}");
        HttpResponse<String> first = messages(key.secret(), "hi", 8000);
        long afterFirst = Long.parseLong(header(first, "x-ratelimit-remaining-tokens"));
        assertThat(afterFirst).as("8000-token output cap taken at admission").isLessThan(12_000);
        // The first call used ~30 tokens: once its estimate has come back, the second finds the bucket nearly full.
        Eventually.until("the first call's estimate settled",
                () -> rateLimitView(key.id()).at("/tokens/remaining").asLong() > afterFirst - 500);
        HttpResponse<String> second = messages(key.secret(), "hi", 8000);
        assertThat(Long.parseLong(header(second, "x-ratelimit-remaining-tokens"))).isGreaterThan(afterFirst - 500);

        JsonNode view = rateLimitView(key.id());
        assertThat(view.at("/tokens/limit").asLong()).isEqualTo(20000);
        assertThat(view.at("/tokens/remaining").asLong()).isGreaterThan(afterFirst);
        assertThat(view.path("requests").isNull()).isTrue();
    }
}
