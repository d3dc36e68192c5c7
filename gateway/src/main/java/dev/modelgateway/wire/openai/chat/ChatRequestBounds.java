package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

import java.util.List;
import java.util.Map;

import static dev.modelgateway.wire.FieldBounds.bool;
import static dev.modelgateway.wire.FieldBounds.integer;
import static dev.modelgateway.wire.FieldBounds.number;
import static dev.modelgateway.wire.FieldBounds.object;
import static dev.modelgateway.wire.FieldBounds.oneOf;

/**
 * What vendor B itself refuses in a chat-completions request (its OpenAPI document's ranges and enums), checked
 * once for every call whichever vendor serves it, so a bad value gets the same 400 natively and translated
 * instead of being clamped or dropped on the way to another vendor (docs/translation.md).
 */
final class ChatRequestBounds {
    static final List<String> EFFORTS = List.of("none", "minimal", "low", "medium", "high", "xhigh", "max");

    private ChatRequestBounds() { }

    static void check(JsonNode body) {
        number(body, "temperature", "temperature", 0, 2);
        number(body, "top_p", "top_p", 0, 1);
        number(body, "presence_penalty", "presence_penalty", -2, 2);
        number(body, "frequency_penalty", "frequency_penalty", -2, 2);
        integer(body, "n", "n", 1, 128);
        bool(body, "logprobs", "logprobs");
        integer(body, "top_logprobs", "top_logprobs", 0, 20);
        logitBias(object(body, "logit_bias", "logit_bias"));
        oneOf(body, "reasoning_effort", "reasoning_effort", EFFORTS);
    }

    /** Token ids (as strings) mapped to a bias from -100 to 100. */
    private static void logitBias(JsonNode bias) {
        if (bias == null) return;
        for (Map.Entry<String, JsonNode> e : bias.properties()) {
            String p = "logit_bias." + e.getKey();
            if (!e.getKey().matches("\\d{1,9}")) {
                throw GatewayException.invalid("logit_bias", "Invalid key in 'logit_bias': token ids are non-negative integers.");
            }
            JsonNode v = e.getValue();
            if (!v.isNumber()) throw Fields.wrongType(p, "a number", v);
            if (v.doubleValue() < -100 || v.doubleValue() > 100) {
                throw GatewayException.invalid(p, "Invalid value for '" + p + "': expected a bias from -100 to 100, got "
                        + v.asText() + ".");
            }
        }
    }
}
