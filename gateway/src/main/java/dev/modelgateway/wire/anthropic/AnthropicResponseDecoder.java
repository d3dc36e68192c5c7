package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolArguments;

import java.util.ArrayList;
import java.util.List;

final class AnthropicResponseDecoder {
    private AnthropicResponseDecoder() { }

    static CanonicalResponse decode(JsonNode body) {
        List<ContentBlock> content = new ArrayList<>();
        for (JsonNode b : body.path("content")) {
            ContentBlock cb = block(b);
            if (cb != null) content.add(cb);
        }
        return new CanonicalResponse(body.path("id").asText(null), body.path("model").asText(null), content,
                AnthropicStopReasons.of(body.path("stop_reason").asText(null)),
                body.path("stop_sequence").asText(null), AnthropicUsage.toCanonical(body.get("usage")));
    }

    static ContentBlock block(JsonNode b) {
        return switch (b.path("type").asText()) {
            case "text" -> new ContentBlock.Text(b.path("text").asText(""));
            case "thinking" -> new ContentBlock.Thinking(b.path("thinking").asText(""), b.path("signature").asText(""),
                    SignatureOrigin.ANTHROPIC);
            case "redacted_thinking" -> new ContentBlock.RedactedThinking(b.path("data").asText());
            case "tool_use" -> new ContentBlock.ToolUse(b.path("id").asText(), b.path("name").asText(),
                    ToolArguments.toText(b.get("input")));
            default -> new ContentBlock.VendorBlock("anthropic", (ObjectNode) b);
        };
    }
}
