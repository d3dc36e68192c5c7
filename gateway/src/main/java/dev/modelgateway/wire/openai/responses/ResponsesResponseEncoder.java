package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;

/**
 * Canonical response → Responses object: thinking → {@code reasoning} item, consecutive text → one
 * {@code message} item, each tool call → a {@code function_call} item. Vendor-only blocks (server tool
 * results) and Anthropic's redacted thinking have no Responses equivalent and are left out.
 */
final class ResponsesResponseEncoder {
    private ResponsesResponseEncoder() { }

    static ArrayNode output(CanonicalResponse response, ItemIds ids, ToolNamespaces namespaces) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        ArrayNode text = null;
        for (ContentBlock b : response.content()) {
            if (!(b instanceof ContentBlock.Text)) text = null;
            switch (b) {
                case ContentBlock.Text t -> {
                    if (text == null) {
                        text = JsonNodeFactory.instance.arrayNode();
                        out.add(ResponseItems.message(ids.next("msg"), "completed", text));
                    }
                    text.add(ResponseItems.outputText(t.text()));
                }
                case ContentBlock.Thinking t -> out.add(ResponseItems.reasoning(ids.next("rs"), t.text(), t.origin(), t.signature()));
                case ContentBlock.ToolUse u -> out.add(ResponseItems.functionCall(ids.next("fc"), u.id(), u.name(),
                        u.arguments(), "completed", namespaces));
                default -> { }
            }
        }
        return out;
    }

    static ObjectNode encode(CanonicalResponse response, String responseId, String publicModel, long createdAt,
                             ToolNamespaces namespaces) {
        return ResponseItems.response(responseId, publicModel, createdAt, output(response, new ItemIds(responseId), namespaces),
                response.stopReason(), response.usage());
    }
}
