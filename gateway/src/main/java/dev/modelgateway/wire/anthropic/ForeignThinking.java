package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.wire.SignatureEnvelope;

/**
 * On the native path, thinking blocks that vendor A never signed are taken out of the history, as the
 * translated path does (docs/translation.md, "Reasoning signatures"): blocks the gateway sealed for another
 * vendor ({@code gemini:}, {@code gemini-call:}, {@code gemini-text:}) and unsigned reasoning ({@code ""}) that
 * a caller brings back after switching vendors mid-conversation. Vendor A would refuse every later turn with
 * "Invalid `signature` in `thinking` block". An assistant message left empty gets {@code "..."} (vendor A wants
 * non-empty content), except a final one, which is dropped.
 */
final class ForeignThinking {
    private ForeignThinking() { }

    static void strip(ObjectNode body) {
        if (!(body.get("messages") instanceof ArrayNode messages)) return;
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode m = messages.get(i);
            if (!"assistant".equals(m.path("role").asText()) || !(m.get("content") instanceof ArrayNode content)) continue;
            boolean removed = false;
            for (int j = content.size() - 1; j >= 0; j--) {
                JsonNode b = content.get(j);
                if ("thinking".equals(b.path("type").asText()) && !SignatureEnvelope.isVendorA(b.path("signature").asText(""))) {
                    content.remove(j);
                    removed = true;
                }
            }
            if (!removed || !content.isEmpty()) continue;
            if (i == messages.size() - 1) messages.remove(i);
            else content.addObject().put("type", "text").put("text", "...");
        }
    }
}
