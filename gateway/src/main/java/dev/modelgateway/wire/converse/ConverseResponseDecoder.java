package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolArguments;

import java.util.ArrayList;
import java.util.List;

/**
 * Converse answer ({@code output.message.content}, {@code stopReason}, {@code usage}) → canonical. Converse names no
 * response id; the model is the deployment's. A signed {@code reasoningText} is vendor A's thinking (only vendor A's
 * models sign their reasoning on Bedrock, and vendor A documents its signatures as valid across its API, Bedrock and
 * Vertex), so it is replayable to vendor A anywhere; unsigned reasoning (other models) is never replayed.
 */
final class ConverseResponseDecoder {
    private ConverseResponseDecoder() {
    }

    static CanonicalResponse decode(JsonNode body) {
        List<ContentBlock> content = new ArrayList<>();
        for (JsonNode b : body.path("output").path("message").path("content")) content.add(block(b));
        return new CanonicalResponse(null, null, content, ConverseStopReasons.of(body.path("stopReason").asText(null)),
                body.path("additionalModelResponseFields").path("stop_sequence").asText(null),
                ConverseUsage.toCanonical(body.get("usage")));
    }

    static ContentBlock block(JsonNode b) {
        if (b.has("text")) return new ContentBlock.Text(b.get("text").asText());
        if (b.has("toolUse")) {
            JsonNode u = b.get("toolUse");
            return new ContentBlock.ToolUse(u.path("toolUseId").asText(), u.path("name").asText(), ToolArguments.toText(u.get("input")));
        }
        JsonNode reasoning = b.path("reasoningContent");
        if (reasoning.has("reasoningText")) {
            JsonNode rt = reasoning.get("reasoningText");
            String signature = rt.path("signature").asText(null);
            return new ContentBlock.Thinking(rt.path("text").asText(""), signature,
                    signature == null ? SignatureOrigin.NONE : SignatureOrigin.ANTHROPIC);
        }
        if (reasoning.has("redactedContent")) return new ContentBlock.RedactedThinking(reasoning.get("redactedContent").asText());
        // citations, images, server tool blocks…: kept verbatim for a later Converse turn
        return new ContentBlock.VendorBlock(ConverseCodec.VENDOR, (ObjectNode) b);
    }
}
