package dev.modelgateway.e2e.accounts;

import com.anthropic.client.AnthropicClient;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.errors.PermissionDeniedException;
import com.openai.errors.RateLimitException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Keys made through the admin API, used by the official SDKs, and every refusal (disabled, expired,
 * model not allowed, budget spent) in the shape of the protocol the caller speaks.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class KeysThroughGatewayTest {
    static final String CHAT_MODEL = "platform/vendorB-5.5";
    static final String MESSAGES_MODEL = "platform/vendorA-sonnet-4.5";

    static GatewayHarness h;
    static AdminApi admin;

    static HttpResponse<String> chat(String key, String model) {
        return h.post("/api/v1/chat/completions", "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "authorization", "Bearer " + key);
    }

    static HttpResponse<String> messages(String key, String model) {
        return h.post("/api/v1/messages", "{\"model\":\"" + model + "\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "authorization", "Bearer " + key);
    }

    /** The chat protocol's error: {@code {"error":{"message","type","param","code"}}}. */
    static JsonNode chatError(HttpResponse<String> r, int status, String code) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo(code);
        assertThat(error.path("message").asText()).isNotBlank();
        return error;
    }

    /** The messages protocol's error: {@code {"type":"error","error":{"type","message"},"request_id"}}. */
    static JsonNode messagesError(HttpResponse<String> r, int status, String type) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        JsonNode body = Json.parseOrNull(r.body());
        assertThat(body.path("type").asText()).isEqualTo("error");
        assertThat(body.at("/error/type").asText()).isEqualTo(type);
        assertThat(body.path("request_id").asText()).isNotBlank();
        return body.path("error");
    }

    @Test
    void keyFromTheAdminApiWorksWithBothSdksAndOnlyItsHashIsStored() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"sdk-user\"}");
        assertThat(key.secret()).startsWith("pk-");

        OpenAIClient openai = h.openai(key.secret());
        ChatCompletion completion = openai.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(CHAT_MODEL).addUserMessage("Hello gateway").build());
        assertThat(completion.choices().get(0).message().content()).hasValue("Hello from vendorB-5.5. You said: Hello gateway");
        AnthropicClient anthropic = h.anthropic(key.secret());
        Message m = anthropic.messages().create(MessageCreateParams.builder()
                .model(MESSAGES_MODEL).maxTokens(64).addUserMessage("Hello gateway").build());
        assertThat(m.content().getLast().text().orElseThrow().text()).isEqualTo("Hello from vendorA-sonnet-4.5. You said: Hello gateway");

        // Listed and fetched without the secret.
        assertThat(admin.get("/api/v1/admin/keys").toString()).contains(key.id()).doesNotContain(key.secret());
        assertThat(admin.get("/api/v1/admin/keys/" + key.id()).has("key")).isFalse();
        // At rest: the SHA-256 of the secret, and the secret in no column.
        try (Connection c = DriverManager.getConnection(h.databaseUrl); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM api_keys WHERE id = '" + key.id() + "'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("key_hash")).isEqualTo(HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(key.secret().getBytes(StandardCharsets.UTF_8))));
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                assertThat(String.valueOf(rs.getObject(i))).doesNotContain(key.secret().substring(3));
            }
        }

        assertThat(admin.call("DELETE", "/api/v1/admin/keys/" + key.id(), null).statusCode()).isEqualTo(200);
        chatError(chat(key.secret(), CHAT_MODEL), 401, "invalid_api_key");
        messagesError(messages(key.secret(), MESSAGES_MODEL), 401, "authentication_error");
    }

    @Test
    void keyCreatedDisabledIs401UntilEnabled() {
        HttpResponse<String> made = admin.call("POST", "/api/v1/admin/keys", "{\"name\":\"born-disabled\",\"disabled\":true}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        JsonNode key = Json.parseOrNull(made.body());
        assertThat(key.path("disabled").asBoolean()).as(made.body()).isTrue();
        chatError(chat(key.path("key").asText(), CHAT_MODEL), 401, "api_key_disabled");

        admin.patch(key.path("id").asText(), "{\"disabled\":false}");
        assertThat(chat(key.path("key").asText(), CHAT_MODEL).statusCode()).isEqualTo(200);
        assertThat(admin.call("POST", "/api/v1/admin/keys", "{\"name\":\"x\",\"disabled\":\"yes\"}").body())
                .contains("\"param\":\"disabled\"");
    }

    @Test
    void disabledKeyIs401InEachProtocolUntilEnabledAgain() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"to-disable\"}");
        assertThat(chat(key.secret(), CHAT_MODEL).statusCode()).isEqualTo(200);

        admin.patch(key.id(), "{\"disabled\":true}");
        chatError(chat(key.secret(), CHAT_MODEL), 401, "api_key_disabled");
        assertThat(messagesError(messages(key.secret(), MESSAGES_MODEL), 401, "authentication_error").path("message").asText())
                .contains("disabled");
        OpenAIClient openai = h.openai(key.secret());
        assertThatThrownBy(() -> openai.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(CHAT_MODEL).addUserMessage("hi").build())).isInstanceOf(UnauthorizedException.class);
        AnthropicClient anthropic = h.anthropic(key.secret());
        assertThatThrownBy(() -> anthropic.messages().create(MessageCreateParams.builder()
                .model(MESSAGES_MODEL).maxTokens(64).addUserMessage("hi").build()))
                .isInstanceOf(com.anthropic.errors.UnauthorizedException.class);

        admin.patch(key.id(), "{\"disabled\":false}");
        assertThat(messages(key.secret(), MESSAGES_MODEL).statusCode()).isEqualTo(200);
    }

    @Test
    void expiredKeyIs401InEachProtocol() {
        AdminApi.CreatedKey expired = admin.create("{\"name\":\"old\",\"expires_at\":\"2020-01-01T00:00:00Z\"}");
        chatError(chat(expired.secret(), CHAT_MODEL), 401, "api_key_expired");
        assertThat(messagesError(messages(expired.secret(), MESSAGES_MODEL), 401, "authentication_error").path("message").asText())
                .contains("expired");

        AdminApi.CreatedKey current = admin.create("{\"name\":\"current\",\"expires_at\":\"2999-01-01\"}");
        assertThat(chat(current.secret(), CHAT_MODEL).statusCode()).isEqualTo(200);
    }

    @Test
    void modelOutsideTheAllowListIs403InEachProtocol() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"vendor-a-only\",\"models\":[\"platform/vendorA-*\"]}");
        assertThat(messages(key.secret(), MESSAGES_MODEL).statusCode()).isEqualTo(200);

        JsonNode chat = chatError(chat(key.secret(), CHAT_MODEL), 403, "model_not_allowed");
        assertThat(chat.path("param").asText()).isEqualTo("model");
        assertThat(chat.path("type").asText()).isEqualTo("permission_error");
        messagesError(messages(key.secret(), CHAT_MODEL), 403, "permission_error");
        OpenAIClient openai = h.openai(key.secret());
        assertThatThrownBy(() -> openai.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(CHAT_MODEL).addUserMessage("hi").build())).isInstanceOf(PermissionDeniedException.class);
    }

    /** An allow-list entry naming an alias allows the model it resolves to, by its id or by any of its names. */
    @Test
    void anAliasInAnAllowListAllowsItsModel() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"by-alias\",\"models\":[\"vendorB-5.6\",\"platform/vendorA-*\"]}");
        for (String model : List.of("vendorB-5.6", "platform/vendorB-5.6-sol", "vendorB-5.6-sol")) {
            HttpResponse<String> r = chat(key.secret(), model);
            assertThat(r.statusCode()).as(model + ": " + r.body()).isEqualTo(200);
        }
        assertThat(messages(key.secret(), MESSAGES_MODEL).statusCode()).isEqualTo(200);
        chatError(chat(key.secret(), "platform/vendorB-5.6-luna"), 403, "model_not_allowed");

        // the same for a team's allow-list
        String team = admin.call("POST", "/api/v1/admin/teams", "{\"name\":\"alias-team\",\"models\":[\"vendorB-5.6-terra\"]}").body();
        AdminApi.CreatedKey member = admin.create("{\"name\":\"alias-member\",\"team_id\":\""
                + Json.parseOrNull(team).path("id").asText() + "\"}");
        assertThat(chat(member.secret(), "platform/vendorB-5.6-terra").statusCode()).isEqualTo(200);
        chatError(chat(member.secret(), "vendorB-5.6"), 403, "model_not_allowed");
    }

    @Test
    void spentBudgetIs429InsufficientQuotaInEachProtocol() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"small-budget\",\"budget_usd\":\"0.0001\"}");
        // The request that crosses the budget completes (budgets are checked, not predicted).
        assertThat(messages(key.secret(), MESSAGES_MODEL).statusCode()).isEqualTo(200);
        BigDecimal spent = new BigDecimal(admin.get("/api/v1/admin/keys/" + key.id()).path("spent_usd").asText());
        assertThat(spent).isGreaterThanOrEqualTo(new BigDecimal("0.0001"));

        HttpResponse<String> chat = chat(key.secret(), CHAT_MODEL);
        chatError(chat, 429, "insufficient_quota");
        assertThat(chat.headers().firstValue("x-should-retry")).hasValue("false");
        HttpResponse<String> messages = messages(key.secret(), MESSAGES_MODEL);
        assertThat(messagesError(messages, 429, "rate_limit_error").path("message").asText()).contains("budget");
        assertThat(messages.headers().firstValue("x-should-retry")).hasValue("false");
        OpenAIClient openai = h.openai(key.secret());
        assertThatThrownBy(() -> openai.chat().completions().create(ChatCompletionCreateParams.builder()
                .model(CHAT_MODEL).addUserMessage("hi").build())).isInstanceOf(RateLimitException.class);
    }
}
