package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.wire.SignatureEnvelope;

import java.util.List;

/**
 * Canonical response → Responses object: thinking → {@code reasoning} item, consecutive text → one
 * {@code message} item, each tool call → a {@code function_call} item; a Gemini signature on a text or a call
 * travels in a reasoning item right before it. Vendor-only blocks (server tool
 * results) and Anthropic's redacted thinking have no Responses equivalent and are left out.
 */
final class ResponsesResponseEncoder {
    private ResponsesResponseEncoder() { }

    static ArrayNode output(CanonicalResponse response, ItemIds ids, ToolNamespaces namespaces) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        ArrayNode text = null;
        List<ContentBlock> blocks = response.content();
        for (int i = 0; i < blocks.size(); i++) {
            ContentBlock b = blocks.get(i);
            // A text part's Gemini signature went before its message item (see textSignature).
            if (i > 0 && SignatureEnvelope.isTextSignature(blocks.get(i - 1), b)) continue;
            if (!(b instanceof ContentBlock.Text)) text = null;
            switch (b) {
                case ContentBlock.Text t -> {
                    if (text == null) {
                        String signature = textSignature(blocks, i);
                        if (signature != null) out.add(ResponseItems.reasoning(ids.next("rs"), null, SignatureEnvelope.sealText(signature)));
                        text = JsonNodeFactory.instance.arrayNode();
                        out.add(ResponseItems.message(ids.next("msg"), "completed", text));
                    }
                    text.add(ResponseItems.outputText(t.text()));
                }
                case ContentBlock.Thinking t -> out.add(ResponseItems.reasoning(ids.next("rs"), t.text(), t.origin(), t.signature()));
                case ContentBlock.ToolUse u -> {
                    if (u.thoughtSignature() != null) {
                        out.add(ResponseItems.reasoning(ids.next("rs"), null, SignatureEnvelope.sealCall(u.thoughtSignature())));
                    }
                    out.add(ResponseItems.functionCall(ids.next("fc"), u.id(), u.name(), u.arguments(), "completed",
                            namespaces));
                }
                default -> { }
            }
        }
        return out;
    }

    /**
     * The Gemini signature on the text of the message item that starts at block {@code from}: it goes in a
     * reasoning item before the message, since one after it would split or trail the message and Codex shows
     * only the last item.
     */
    private static String textSignature(List<ContentBlock> blocks, int from) {
        for (int i = from + 1; i < blocks.size(); i++) {
            ContentBlock b = blocks.get(i);
            if (SignatureEnvelope.isTextSignature(blocks.get(i - 1), b)) return ((ContentBlock.Thinking) b).signature();
            if (!(b instanceof ContentBlock.Text)) return null;
        }
        return null;
    }

    static ObjectNode encode(CanonicalResponse response, String responseId, String publicModel, long createdAt,
                             ToolNamespaces namespaces) {
        return ResponseItems.response(responseId, publicModel, createdAt, output(response, new ItemIds(responseId), namespaces),
                response.stopReason(), response.usage());
    }
}
