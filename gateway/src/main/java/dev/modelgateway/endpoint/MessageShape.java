package dev.modelgateway.endpoint;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

import java.util.Set;

/**
 * Structural checks on {@code messages} shared by both protocols, so that a malformed turn gets a 400
 * naming it ({@code messages[2].role}) instead of an opaque vendor error.
 */
public final class MessageShape {
    private MessageShape() {
    }

    public static void check(ArrayNode messages, Set<String> roles, boolean contentRequired) {
        if (messages.isEmpty()) {
            throw GatewayException.invalid("messages", "'messages' must contain at least one message.");
        }
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            String at = "messages[" + i + "]";
            if (!m.isObject()) throw Fields.wrongType(at, "an object", m);
            JsonNode role = m.get("role");
            if (role == null || role.isNull()) throw GatewayException.invalid(at + ".role", "Missing required parameter: '" + at + ".role'.");
            if (!role.isTextual()) throw Fields.wrongType(at + ".role", "a string", role);
            if (!roles.contains(role.asText())) {
                throw GatewayException.invalid(at + ".role", "Invalid value for '" + at + ".role': '" + role.asText()
                        + "'; expected one of " + String.join(", ", roles.stream().sorted().toList()) + ".");
            }
            JsonNode content = m.get("content");
            if (content == null || content.isNull()) {
                if (contentRequired) {
                    throw GatewayException.invalid(at + ".content", "Missing required parameter: '" + at + ".content'.");
                }
                continue;
            }
            if (!content.isTextual() && !content.isArray()) {
                throw Fields.wrongType(at + ".content", "a string or an array of content blocks", content);
            }
            if (content.isArray()) {
                for (int j = 0; j < content.size(); j++) {
                    JsonNode block = content.get(j);
                    String bat = at + ".content[" + j + "]";
                    if (!block.isObject()) throw Fields.wrongType(bat, "an object", block);
                    if (!block.path("type").isTextual()) {
                        throw GatewayException.invalid(bat + ".type", "Missing required parameter: '" + bat + ".type'.");
                    }
                }
            }
        }
    }
}
