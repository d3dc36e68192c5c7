package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalResponse;

final class MessagesResponseEncoder {
    private MessagesResponseEncoder() { }

    static ObjectNode encode(CanonicalResponse r, String publicModel) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("id", messageId(r.id()));
        root.put("type", "message");
        root.put("role", "assistant");
        root.put("model", publicModel);
        ArrayNode content = root.putArray("content");
        MessagesBlocks.appendAll(r.content(), content);
        root.put("stop_reason", MessagesStopReasons.of(r.stopReason(), r.hasToolUse()));
        root.put("stop_sequence", r.stopSequence());
        root.set("usage", AnthropicUsage.toAnthropic(r.usage()));
        return root;
    }

    static String messageId(String id) {
        if (id == null || id.isEmpty()) return "msg_gateway";
        return id.startsWith("msg_") ? id : "msg_" + id;
    }
}
