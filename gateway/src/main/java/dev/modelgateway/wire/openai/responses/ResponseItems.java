package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.wire.SignatureEnvelope;

/** Builders for the Responses API's output items and response object, shared by the JSON and stream encoders. */
final class ResponseItems {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ResponseItems() { }

    static ObjectNode message(String id, String status, ArrayNode content) {
        ObjectNode item = F.objectNode().put("id", id).put("type", "message").put("status", status).put("role", "assistant");
        item.set("content", content);
        return item;
    }

    static ObjectNode outputText(String text) {
        ObjectNode part = F.objectNode().put("type", "output_text").put("text", text);
        part.putArray("annotations");
        part.putArray("logprobs");
        return part;
    }

    /** A function call; a flat name standing for a namespaced function is given back as the caller's (namespace, name). */
    static ObjectNode functionCall(String id, String callId, String vendorName, String arguments, String status,
                                   ToolNamespaces namespaces) {
        ObjectNode item = F.objectNode().put("id", id).put("type", "function_call").put("status", status).put("call_id", callId);
        ToolNamespaces.Qualified q = namespaces.qualified(vendorName);
        if (q != null) item.put("namespace", q.namespace());
        return item.put("name", q != null ? q.name() : vendorName).put("arguments", arguments);
    }

    /**
     * A reasoning item. The vendor's signature, sealed for Responses (vendor A's too, so that it is never taken for
     * vendor B's own encrypted content), travels in {@code encrypted_content} so that a stateless client can replay
     * the item to the same vendor; unsigned reasoning has {@code encrypted_content: null}.
     */
    static ObjectNode reasoning(String id, String text, SignatureOrigin origin, String signature) {
        return reasoning(id, text, SignatureEnvelope.sealForResponses(origin, signature));
    }

    /**
     * A reasoning item with an already sealed signature: also the carrier, with no summary, of a Gemini
     * signature that belongs on the next function call ({@code gemini-call:}) or message text
     * ({@code gemini-text:}), since Responses items have no other slot a client replays.
     */
    static ObjectNode reasoning(String id, String text, String sealed) {
        ObjectNode item = F.objectNode().put("id", id).put("type", "reasoning");
        ArrayNode summary = item.putArray("summary");
        if (text != null && !text.isEmpty()) summary.addObject().put("type", "summary_text").put("text", text);
        if (sealed.isEmpty()) item.putNull("encrypted_content");
        else item.put("encrypted_content", sealed);
        return item;
    }

    static boolean incomplete(StopReason stop) {
        return stop == StopReason.MAX_TOKENS || stop == StopReason.CONTEXT_WINDOW || stop == StopReason.REFUSAL;
    }

    /** The response object; {@code output == null} gives the in-progress skeleton of {@code response.created}. */
    static ObjectNode response(String id, String model, long createdAt, ArrayNode output, StopReason stop, Usage usage) {
        ObjectNode r = F.objectNode().put("id", id).put("object", "response").put("created_at", createdAt);
        boolean done = output != null;
        r.put("status", !done ? "in_progress" : incomplete(stop) ? "incomplete" : "completed");
        r.putNull("error");
        if (done && incomplete(stop)) {
            r.putObject("incomplete_details").put("reason", stop == StopReason.REFUSAL ? "content_filter" : "max_output_tokens");
        } else {
            r.putNull("incomplete_details");
        }
        r.putNull("instructions");
        r.putObject("metadata");
        r.put("model", model);
        r.set("output", done ? output : F.arrayNode());
        r.put("parallel_tool_calls", true);
        r.putNull("previous_response_id");
        r.putNull("temperature");
        r.put("tool_choice", "auto");
        r.putArray("tools");
        r.putNull("top_p");
        if (done) r.set("usage", ResponsesUsage.toResponses(usage));
        else r.putNull("usage");
        return r;
    }
}
