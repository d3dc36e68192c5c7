package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.wire.SignatureEnvelope;

/**
 * On the native path to vendor B, reasoning items the gateway wrote for another vendor's answer are taken out of
 * the input, as {@code wire/anthropic/ForeignThinking} does for vendor A (docs/translation.md, "Reasoning
 * signatures"): those whose {@code encrypted_content} carries one of the gateway's seals ({@code anthropic:},
 * {@code gemini…:}), which vendor B refuses with 400 {@code invalid_encrypted_content}, and unsigned ones (no
 * {@code encrypted_content}) with a gateway-made id, which vendor B looks up by id and cannot find (404). A client
 * that switched vendors mid-conversation would otherwise be refused on every later turn. Vendor B's own reasoning
 * items pass unchanged.
 */
final class ForeignReasoning {
    private ForeignReasoning() { }

    static void strip(ObjectNode body) {
        if (!(body.get("input") instanceof ArrayNode input)) return;
        for (int i = input.size() - 1; i >= 0; i--) {
            if (gatewayMade(input.get(i))) input.remove(i);
        }
    }

    private static boolean gatewayMade(JsonNode item) {
        if (!"reasoning".equals(item.path("type").asText())) return false;
        JsonNode encrypted = item.get("encrypted_content");
        if (encrypted != null && !encrypted.isNull()) return SignatureEnvelope.isGatewaySealed(encrypted.asText());
        return item.path("id").isTextual() && ItemIds.responseOf(item.path("id").asText()) != null;
    }
}
