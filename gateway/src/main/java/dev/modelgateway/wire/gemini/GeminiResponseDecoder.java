package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.ToolCallIds;

import java.util.ArrayList;
import java.util.List;

/**
 * GenerateContentResponse → canonical. Gemini gives function calls no id, so ids are derived from the
 * response id and call position. A signature on a non-thought text part becomes an empty GEMINI thinking
 * block right after the text; the encoder folds it back onto that part.
 */
final class GeminiResponseDecoder {
    private GeminiResponseDecoder() { }

    static CanonicalResponse decode(JsonNode body) {
        String id = body.path("responseId").asText(null);
        String model = body.path("modelVersion").asText(null);
        JsonNode candidate = body.path("candidates").path(0);
        if (candidate.isMissingNode()) {
            // A blocked prompt is a 200 without candidates: a content-filter outcome, not an empty success.
            StopReason reason = body.path("promptFeedback").hasNonNull("blockReason") ? StopReason.REFUSAL : StopReason.END_TURN;
            return new CanonicalResponse(id, model, List.of(), reason, null, GeminiUsage.toCanonical(body.get("usageMetadata")));
        }
        List<ContentBlock> content = new ArrayList<>();
        int calls = 0;
        for (JsonNode part : candidate.path("content").path("parts")) {
            String sig = part.path("thoughtSignature").asText(null);
            if (part.has("functionCall")) {
                JsonNode fc = part.get("functionCall");
                String callId = fc.hasNonNull("id") ? fc.get("id").asText() : ToolCallIds.synthesize(id, calls);
                calls++;
                content.add(new ContentBlock.ToolUse(callId, fc.path("name").asText(), ToolArguments.toText(fc.get("args")),
                        sig, null));
            } else if (part.path("thought").asBoolean(false)) {
                content.add(new ContentBlock.Thinking(part.path("text").asText(""), sig, SignatureOrigin.GEMINI));
            } else if (part.has("text")) {
                String text = part.get("text").asText();
                if (!text.isEmpty()) content.add(new ContentBlock.Text(text));
                if (sig != null) content.add(new ContentBlock.Thinking("", sig, SignatureOrigin.GEMINI));
            } else if (part.has("inlineData")) {
                JsonNode d = part.get("inlineData");
                content.add(ContentBlock.Media.base64(MediaKind.IMAGE, d.path("mimeType").asText(), d.path("data").asText()));
            } else {
                content.add(new ContentBlock.VendorBlock("gemini", (ObjectNode) part));
            }
        }
        return new CanonicalResponse(id, model, content,
                GeminiFinishReasons.of(candidate.path("finishReason").asText(null), calls > 0), null,
                GeminiUsage.toCanonical(body.get("usageMetadata")));
    }
}
