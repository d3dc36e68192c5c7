package dev.modelgateway.e2e.surface;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.http.HttpResponse;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/contract.md §5, §7 and §9 over raw HTTP: what a client sees for every error rule of the gateway core. */
@E2e
class AuthTraceAndErrorRulesTest {
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        h = GatewayHarness.builder().missingKey(Vendor.GEMINI).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    static final String CHAT = "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    static final String MESSAGES = "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    static JsonNode json(HttpResponse<String> r) {
        return Json.parseOrNull(r.body());
    }

    @Test
    void missingCredentialIs401InEachProtocolsShape() {
        HttpResponse<String> chat = h.post("/api/v1/chat/completions", CHAT);
        assertThat(chat.statusCode()).isEqualTo(401);
        assertThat(json(chat).at("/error/code").asText()).isEqualTo("invalid_api_key");
        assertThat(json(chat).at("/error/message").asText()).contains("Authorization: Bearer");

        HttpResponse<String> messages = h.post("/api/v1/messages", MESSAGES);
        assertThat(messages.statusCode()).isEqualTo(401);
        assertThat(json(messages).path("type").asText()).isEqualTo("error");
        assertThat(json(messages).at("/error/type").asText()).isEqualTo("authentication_error");
    }

    @Test
    void xApiKeyInsteadOfBearerIs401ExplainingTheBearerTokenOption() {
        HttpResponse<String> r = h.post("/api/v1/messages", MESSAGES, "x-api-key", GatewayHarness.KEY,
                "anthropic-version", "2023-06-01");
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(json(r).at("/error/type").asText()).isEqualTo("authentication_error");
        assertThat(json(r).at("/error/message").asText()).contains("x-api-key").contains("authToken").contains("auth_token");
    }

    @Test
    void wrongKeyAndWrongSchemeAre401() {
        assertThat(h.post("/api/v1/chat/completions", CHAT, "authorization", "Bearer nope").statusCode()).isEqualTo(401);
        HttpResponse<String> basic = h.post("/api/v1/chat/completions", CHAT, "authorization", "Basic Zm9vOmJhcg==");
        assertThat(basic.statusCode()).isEqualTo(401);
        assertThat(json(basic).at("/error/message").asText()).contains("Bearer");
    }

    @Test
    void anthropicVersionHeaderIsHarmlessEitherWay() {
        assertThat(h.postAuthed("/api/v1/messages", MESSAGES, "anthropic-version", "2023-06-01").statusCode()).isEqualTo(200);
        assertThat(h.postAuthed("/api/v1/messages", MESSAGES).statusCode()).isEqualTo(200);
        assertThat(h.postAuthed("/api/v1/messages?beta=true", MESSAGES, "anthropic-version", "1999-01-01").statusCode()).isEqualTo(200);
    }

    @Test
    void everyResponseCarriesAUniqueTraceId() {
        Set<String> ids = new HashSet<>();
        for (HttpResponse<String> r : new HttpResponse[]{
                h.postAuthed("/api/v1/chat/completions", CHAT),
                h.post("/api/v1/chat/completions", CHAT),
                h.postAuthed("/api/v1/chat/completions", "{not json"),
                h.postAuthed("/api/v1/messages", MESSAGES),
                h.getAuthed("/api/v1/models"),
                h.getAuthed("/api/v1/nowhere")}) {
            String id = r.headers().firstValue("x-platform-trace-id").orElseThrow();
            assertThat(id).matches("[0-9a-f]{32}");
            ids.add(id);
        }
        assertThat(ids).hasSize(6);
    }

    @Test
    void messagesErrorsCarryTheTraceIdAsRequestId() {
        HttpResponse<String> r = h.postAuthed("/api/v1/messages", "{\"model\":\"platform/vendorA-sonnet-4.5\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(json(r).path("request_id").asText()).isEqualTo(r.headers().firstValue("x-platform-trace-id").orElseThrow());
    }

    @ParameterizedTest(name = "chat: {0}")
    @CsvSource(delimiter = '|', value = {
            "{not json|''|not valid JSON",
            "[1,2]|''|JSON object",
            "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|model|model",
            "{\"model\":5,\"messages\":[]}|model|expected a string",
            "{\"model\":\"platform/vendorB-5.5\"}|messages|messages",
            "{\"model\":\"platform/vendorB-5.5\",\"messages\":\"hi\"}|messages|expected an array",
            "{\"model\":\"platform/vendorB-5.5\",\"messages\":[]}|messages|at least one",
            "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"robot\",\"content\":\"x\"}]}|messages[0].role|robot",
            "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":7}]}|messages[0].content|expected a string or an array",
            "{\"model\":\"platform/vendorB-5.5\",\"stream\":\"yes\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|stream|expected a boolean",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"timeout\":301},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.timeout|between 0 and 300",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"timeout\":-1},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.timeout|between 0 and 300",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"timeout\":\"10\"},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.timeout|expected a number",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"max_retries\":0},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.max_retries|between 1 and 3",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"max_retries\":4},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.max_retries|between 1 and 3",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"max_retries\":1.5},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.max_retries|expected an integer",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"fallbacks\":\"platform/vendorB-5.4\"},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.fallbacks|array",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"fallbacks\":[\"platform/vendorB-5.4\",\"nope-model\"]},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.fallbacks[1]|nope-model",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"retries\":2},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.retries|Unknown field",
            "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":[],\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options|expected an object",
    })
    void badChatInputIs400NamingTheField(String body, String param, String messagePart) {
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        JsonNode error = json(r).path("error");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        if (param.isEmpty()) assertThat(error.path("param").isNull()).isTrue();
        else assertThat(error.path("param").asText()).isEqualTo(param);
        assertThat(error.path("message").asText()).contains(messagePart);
        assertThat(r.body()).doesNotContain("Exception").doesNotContain("at dev.");
    }

    @ParameterizedTest(name = "messages: {0}")
    @CsvSource(delimiter = '|', value = {
            "{\"model\":\"platform/vendorA-sonnet-4.5\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|max_tokens",
            "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":\"64\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|max_tokens",
            "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\"}]}|messages[0].content",
            "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":[\"x\"]}]}|messages[0].content[0]",
            "{\"model\":\"platform/vendorA-opus-4.8\",\"max_tokens\":4096,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|thinking.type",
            "{\"model\":\"platform/vendorA-opus-4.7\",\"max_tokens\":4096,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|thinking.type",
            "{\"model\":\"platform/vendorA-sonnet-5\",\"max_tokens\":4096,\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|thinking.type",
            "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":4096,\"thinking\":{\"type\":\"enabled\"},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|thinking.budget_tokens",
            "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":4096,\"thinking\":{\"type\":\"sometimes\"},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|thinking.type",
            "{\"model\":\"platform/vendorA-sonnet-5\",\"max_tokens\":4096,\"output_config\":{\"effort\":\"huge\"},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|output_config.effort",
            "{\"model\":\"platform/vendorA-sonnet-5\",\"max_tokens\":64,\"platform_options\":{\"max_retries\":9},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}|platform_options.max_retries",
    })
    void badMessagesInputIs400InTheMessagesShapeNamingTheField(String body, String field) {
        HttpResponse<String> r = h.postAuthed("/api/v1/messages", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json(r).path("type").asText()).isEqualTo("error");
        assertThat(json(r).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(json(r).at("/error/message").asText()).contains(field);
    }

    @Test
    void enabledThinkingOnNewerModelsAdvisesAdaptive() {
        HttpResponse<String> r = h.postAuthed("/api/v1/messages", "{\"model\":\"platform/vendorA-opus-4.8\",\"max_tokens\":4096,"
                + "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":2048},\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(json(r).at("/error/message").asText()).contains("adaptive").contains("output_config.effort");
    }

    @ParameterizedTest(name = "{0} on series 6 chat")
    @CsvSource({"temperature,0.2", "top_p,0.9", "top_logprobs,3", "logprobs,true"})
    void series6RefusesSamplingAndLogprobParamsOnChat(String field, String value) {
        for (String model : new String[]{"platform/vendorB-6-sol", "vendorB-6-astra", "platform/vendorB-6-luna"}) {
            HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + model + "\",\"" + field + "\":"
                    + value + ",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
            assertThat(json(r).at("/error/param").asText()).isEqualTo(field);
            assertThat(json(r).at("/error/message").asText()).contains("Responses API");
        }
        // the same parameter is fine on an older series
        HttpResponse<String> ok = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.6-sol\",\"" + field
                + "\":" + value + ",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0} → 404")
    @CsvSource(delimiter = '|', value = {
            "vendorB-6|platform/vendorB-6-astra",
            "platform/vendorB-6|platform/vendorB-6-sol",
            "vendorB-5.5|use 'platform/vendorB-5.5'",
            "vendorA-opus-4.8|use 'platform/vendorA-opus-4.8'",
            "vendorA-sonnet-4-5-20241022|use 'platform/vendorA-sonnet-4.5'",
            "platform/vendorA-sonnet-4-5-20241022|use 'platform/vendorA-sonnet-4.5'",
            "vendorA-opus-4-8|use 'platform/vendorA-opus-4.8'",
            "platform/vendorA-sonnet-4|retired",
            "platform/no-such-model|/api/v1/models",
    })
    void modelResolutionFailuresAre404WithAdvice(String model, String advice) {
        HttpResponse<String> chat = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + model
                + "\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(chat.statusCode()).as(chat.body()).isEqualTo(404);
        assertThat(json(chat).at("/error/code").asText()).isEqualTo("model_not_found");
        assertThat(json(chat).at("/error/param").asText()).isEqualTo("model");
        assertThat(json(chat).at("/error/message").asText()).contains(advice);

        HttpResponse<String> messages = h.postAuthed("/api/v1/messages", "{\"model\":\"" + model
                + "\",\"max_tokens\":10,\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(messages.statusCode()).isEqualTo(404);
        assertThat(json(messages).at("/error/type").asText()).isEqualTo("not_found_error");
        assertThat(json(messages).at("/error/message").asText()).contains(advice);
    }

    @ParameterizedTest(name = "alias {0} → {1}")
    @CsvSource({
            "vendorB-6-astra,vendorB-6-astra", "vendorB-6-sol,vendorB-6-sol", "vendorB-6-luna,vendorB-6-luna",
            "vendorB-5.6,vendorB-5.6-sol", "vendorB-5.6-sol,vendorB-5.6-sol", "vendorB-5.6-terra,vendorB-5.6-terra",
            "vendorB-5.6-luna,vendorB-5.6-luna", "platform/vendorB-5.4-nano,vendorB-5.4-nano", "vendorD-plus-latest,vendorD-plus-latest"})
    void aliasesRouteToThePrefixedModel(String requested, String upstream) {
        h.sim.clearReceived();
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + requested
                + "\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(h.sim.received().getLast().body()).path("model").asText()).isEqualTo(upstream);
    }

    @Test
    void platformOptionsNeverReachTheVendor() {
        h.sim.clearReceived();
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\","
                + "\"platform_options\":{\"timeout\":30,\"max_retries\":2,\"fallbacks\":[\"platform/vendorB-5.4\"]},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(h.sim.received().getLast().body()).doesNotContain("platform_options").doesNotContain("platform/");
    }

    @Test
    void unconfiguredVendorFailsThatVendorsRequestsClearly() {
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"vendorC-pro-3\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
        assertThat(r.statusCode()).isIn(501, 503);
        assertThat(r.body()).doesNotContain("Exception");
    }

    @Test
    void unknownEndpointIs404InOpenAiShape() {
        HttpResponse<String> r = h.getAuthed("/api/v1/nowhere");
        assertThat(r.statusCode()).isEqualTo(404);
        assertThat(json(r).at("/error/message").asText()).contains("/api/v1/nowhere");
    }

    @Test
    void oversizedBodyIs413() {
        String big = "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + "a".repeat(33 * 1024 * 1024) + "\"}]}";
        HttpResponse<String> r = h.postAuthed("/api/v1/chat/completions", big);
        assertThat(r.statusCode()).isEqualTo(413);
    }

    @Test
    void modelsListHasEveryNamedModelInOpenAiShape() {
        HttpResponse<String> r = h.getAuthed("/api/v1/models");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode list = json(r);
        assertThat(list.path("object").asText()).isEqualTo("list");
        Set<String> ids = new HashSet<>();
        list.path("data").forEach(m -> ids.add(m.path("id").asText()));
        assertThat(ids).contains("platform/vendorA-sonnet-5", "platform/vendorA-opus-4.8", "platform/vendorA-opus-4.7",
                "platform/vendorA-sonnet-4.5", "platform/vendorB-6-astra", "platform/vendorB-6-sol", "platform/vendorB-6-luna",
                "platform/vendorB-5.6-sol", "platform/vendorB-5.6-terra", "platform/vendorB-5.6-luna", "platform/vendorB-5.5",
                "platform/vendorB-5.4", "platform/vendorB-5.4-mini", "platform/vendorB-5.4-nano",
                "platform/text-embedding-3-small", "vendorA-sonnet-5", "vendorD-plus-latest");
        assertThat(ids).anyMatch(id -> id.startsWith("vendorC-"));
        JsonNode sonnet = null;
        for (JsonNode m : list.path("data")) if (m.path("id").asText().equals("platform/vendorA-sonnet-5")) sonnet = m;
        assertThat(sonnet.path("object").asText()).isEqualTo("model");
        assertThat(sonnet.path("vendor").asText()).isEqualTo("anthropic");
        assertThat(sonnet.path("upstream_model").asText()).isEqualTo("vendorA-sonnet-5");
        assertThat(sonnet.path("context_window").asLong()).isPositive();
        assertThat(sonnet.at("/pricing/cache_read").decimalValue()).isLessThan(sonnet.at("/pricing/input").decimalValue());
        assertThat(sonnet.path("status").asText()).isEqualTo("active");
    }
}
