package dev.modelgateway.e2e.surface;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 12 item 11: a value the caller protocol's own vendor refuses gets the same 400 naming the field on every
 * vendor behind that protocol, native or translated, before anything goes upstream (docs/translation.md,
 * "Parameters without an equivalent"). Also the body-level refusals: bytes after the JSON value, an unknown
 * fallback model, and nesting beyond the limit, on every protocol.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class SameRefusalEverywhereTest {
    static GatewayHarness h;

    /** One model per vendor A, B, C, D: native for the protocol's own vendor, translated for the others. */
    static final List<String> MODELS = List.of("platform/vendorA-sonnet-4.5", "platform/vendorB-5.5", "vendorC-pro-3",
            "vendorD-plus-latest");

    static String path(String protocol) {
        return "/api/v1/" + (protocol.equals("chat") ? "chat/completions" : protocol);
    }

    static String body(String protocol, String model, String marker, String fields) {
        String extra = fields.isEmpty() ? "" : "," + fields;
        String messages = fields.contains("\"messages\"") ? ""
                : ",\"messages\":[{\"role\":\"user\",\"content\":\"" + marker + "\"}]";
        return switch (protocol) {
            case "chat" -> "{\"model\":\"" + model + "\"" + messages + extra + "}";
            case "messages" -> "{\"model\":\"" + model + "\",\"max_tokens\":4096" + messages + extra + "}";
            default -> "{\"model\":\"" + model + "\",\"input\":\"" + marker + "\"" + extra + "}";
        };
    }

    /** The caller's view of a 400: status, error type, and the field it names (param, or the message for messages). */
    static void assertSameRefusalOnEveryVendor(String protocol, String fields, String field) {
        String marker = "refused-" + Integer.toHexString(fields.hashCode());
        Map<String, String> errors = new LinkedHashMap<>();
        for (String model : MODELS) {
            HttpResponse<String> r = h.postAuthed(path(protocol), body(protocol, model, marker, fields.replace("MARKER", marker)));
            assertThat(r.statusCode()).as(model + ": " + r.body()).isEqualTo(400);
            JsonNode json = Json.parseOrNull(r.body());
            JsonNode error = json.path("error");
            assertThat(error.path("type").asText()).as(model).isEqualTo("invalid_request_error");
            if (protocol.equals("messages")) assertThat(error.path("message").asText()).as(model).contains(field);
            else assertThat(error.path("param").asText()).as(model + ": " + r.body()).isEqualTo(field);
            ((ObjectNode) json).remove("request_id");
            errors.put(model, json.toString());
        }
        assertThat(errors.values().stream().distinct()).as("the same answer from every vendor: " + errors).hasSize(1);
        assertThat(h.sim.received()).as("nothing reached a vendor").noneMatch(x -> x.body().contains(marker));
    }

    @ParameterizedTest(name = "chat {1}: {0}")
    @CsvSource(delimiter = '|', value = {
            "\"temperature\":2.5|temperature",
            "\"temperature\":-0.5|temperature",
            "\"temperature\":\"hot\"|temperature",
            "\"top_p\":1.5|top_p",
            "\"presence_penalty\":3|presence_penalty",
            "\"frequency_penalty\":-2.5|frequency_penalty",
            "\"n\":0|n",
            "\"logit_bias\":\"x\"|logit_bias",
            "\"logit_bias\":{\"50256\":150}|logit_bias.50256",
            "\"logit_bias\":{\"hello\":1}|logit_bias",
            "\"logprobs\":true,\"top_logprobs\":21|top_logprobs",
            "\"logprobs\":\"yes\"|logprobs",
            "\"reasoning_effort\":\"extreme\"|reasoning_effort",
    })
    void chat(String fields, String field) {
        assertSameRefusalOnEveryVendor("chat", fields, field);
    }

    @ParameterizedTest(name = "messages {1}: {0}")
    @CsvSource(delimiter = '|', value = {
            "\"temperature\":1.5|temperature",
            "\"top_p\":-1|top_p",
            "\"top_k\":-1|top_k",
            "\"output_config\":{\"effort\":\"huge\"}|output_config.effort",
            "\"output_config\":\"high\"|output_config",
            "\"thinking\":{\"type\":\"sometimes\"}|thinking.type",
            "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":100}|thinking.budget_tokens",
            "\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"2h\"}|cache_control.ttl",
            "\"system\":[{\"type\":\"text\",\"text\":\"s\",\"cache_control\":{\"type\":\"persistent\"}}]|system[0].cache_control.type",
            "\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"MARKER\",\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"2h\"}}]}]|messages[0].content[0].cache_control.ttl",
            "\"tools\":[{\"name\":\"f\",\"input_schema\":{\"type\":\"object\"},\"cache_control\":{\"type\":\"ephemeral\",\"ttl\":\"1d\"}}]|tools[0].cache_control.ttl",
    })
    void messages(String fields, String field) {
        assertSameRefusalOnEveryVendor("messages", fields, field);
    }

    @ParameterizedTest(name = "responses {1}: {0}")
    @CsvSource(delimiter = '|', value = {
            "\"temperature\":3|temperature",
            "\"top_p\":-0.1|top_p",
            "\"top_logprobs\":21|top_logprobs",
            "\"reasoning\":\"high\"|reasoning",
            "\"reasoning\":{\"effort\":5}|reasoning.effort",
            "\"reasoning\":{\"effort\":\"extreme\"}|reasoning.effort",
            "\"reasoning\":{\"summary\":\"verbose\"}|reasoning.summary",
            "\"text\":\"json\"|text",
            "\"text\":{\"verbosity\":\"loud\"}|text.verbosity",
            "\"text\":{\"format\":{\"type\":\"xml\"}}|text.format.type",
            "\"text\":{\"format\":{\"type\":\"json_schema\",\"name\":\"x\"}}|text.format.schema",
    })
    void responses(String fields, String field) {
        assertSameRefusalOnEveryVendor("responses", fields, field);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chat", "messages", "responses"})
    void bytesAfterTheJsonBodyAre400(String protocol) {
        for (String tail : new String[]{" trailing", "{}", "]", ",1"}) {
            HttpResponse<String> r = h.postAuthed(path(protocol), body(protocol, "platform/vendorB-5.5", "trailing-" + protocol, "") + tail);
            assertThat(r.statusCode()).as(tail + ": " + r.body()).isEqualTo(400);
            assertThat(Json.parseOrNull(r.body()).at("/error/message").asText()).startsWith("The request body is not valid JSON")
                    .doesNotContain("jackson");
            if (tail.equals("{}")) assertThat(r.body()).contains("more data follows the JSON value");
        }
        HttpResponse<String> ok = h.postAuthed(path(protocol), body(protocol, "platform/vendorB-5.5", "whitespace", "") + " \r\n\t ");
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chat", "messages", "responses"})
    void anUnknownFallbackIs400NamingIt(String protocol) {
        HttpResponse<String> r = h.postAuthed(path(protocol), body(protocol, "platform/vendorB-5.5", "fallback",
                "\"platform_options\":{\"fallbacks\":[\"vendorC-pro-3\",\"nope-model\"]}"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(Json.parseOrNull(r.body()).at("/error/message").asText())
                .contains("platform_options.fallbacks[1]").contains("nope-model");
    }

    /** Too deep a document, parsed on the event loop (small) and on a worker thread (over 256 KiB). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"chat", "messages", "responses"})
    void nestingBeyondTheLimitIs400(String protocol) {
        String deep = "\"x\":" + "[".repeat(5000) + "]".repeat(5000);
        String padding = "\"pad\":\"" + "p".repeat(300 * 1024) + "\"";
        for (String fields : new String[]{deep, padding + "," + deep, "\"y\":" + "{\"a\":".repeat(300) + "1" + "}".repeat(300)}) {
            HttpResponse<String> r = h.postAuthed(path(protocol), body(protocol, "platform/vendorB-5.5", "deep", fields));
            assertThat(r.statusCode()).as(r.body().substring(0, Math.min(300, r.body().length()))).isEqualTo(400);
            assertThat(Json.parseOrNull(r.body()).at("/error/message").asText()).contains("nesting depth");
        }
    }
}
