package dev.modelgateway.canonical;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Tool-call arguments travel as a JSON string in chat-shaped protocols and as an object in Anthropic and
 * Gemini. The canonical form is the raw string; this converts at the edges.
 */
public final class ToolArguments {
    /** Key under which arguments that are not a JSON object are wrapped for object-only vendors. */
    public static final String RAW_KEY = "_raw";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ToolArguments() { }

    /**
     * The arguments as an object. Empty text (OpenAI no-arg tools) is {@code {}}; text that is not a JSON
     * object (a call truncated by max_tokens, a model glitch) is kept as {@code {"_raw": text}} so history
     * replays instead of failing the whole conversation.
     */
    public static ObjectNode toObject(String raw) {
        if (raw == null || raw.isBlank()) return JSON.createObjectNode();
        try {
            JsonNode node = JSON.readTree(raw);
            if (node instanceof ObjectNode o) return o;
        } catch (JsonProcessingException ignored) {
            // fall through to wrapping
        }
        ObjectNode wrapped = JSON.createObjectNode();
        wrapped.put(RAW_KEY, raw);
        return wrapped;
    }

    /** Arguments as text guaranteed to be a JSON object (what Qwen and OpenAI accept in replayed history). */
    public static String toValidJson(String raw) {
        return toText(toObject(raw));
    }

    public static String toText(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) return "{}";
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static JsonNode parseOrNull(String text) {
        try {
            return JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
