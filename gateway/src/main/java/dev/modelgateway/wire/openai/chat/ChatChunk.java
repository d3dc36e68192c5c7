package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the stream decoder needs of one {@code chat.completion.chunk}, read with Jackson's streaming parser
 * straight from the event's bytes: the envelope ({@code object}, {@code created}, {@code system_fingerprint},
 * {@code logprobs}…) is skipped rather than materialised as a tree for every delta. Only the rare parts
 * (tool calls, usage) are read as trees. A chunk in any other shape (an error, a field of an unexpected type)
 * is refused, for the decoder to read it as a tree.
 */
final class ChatChunk {
    /**
     * One choice with index 0 (n > 1 is rejected before reaching a translated upstream); its texts are null or
     * empty when absent, {@code toolCalls} is null when there are none.
     */
    record Choice(String reasoning, String content, String refusal, JsonNode toolCalls, String finishReason) {
    }

    String id;
    String model;
    JsonNode usage;
    final List<Choice> choices = new ArrayList<>(1);

    /**
     * Reads a chunk from its bytes; false when it is not in the usual shape.
     *
     * @param withIds whether to read {@code id} and {@code model} (only the stream's first chunk needs them)
     */
    boolean read(byte[] bytes, int offset, int length, boolean withIds) {
        clear();
        try (JsonParser p = Json.MAPPER.createParser(bytes, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "id" -> {
                        if (!withIds) p.skipChildren();
                        else if (!text(value)) return false;
                        else id = p.getText();
                    }
                    case "model" -> {
                        if (!withIds) p.skipChildren();
                        else if (!text(value)) return false;
                        else model = p.getText();
                    }
                    case "usage" -> {
                        if (value == JsonToken.START_OBJECT) usage = p.readValueAsTree();
                        else if (value != JsonToken.VALUE_NULL) return false;
                    }
                    case "choices" -> {
                        if (value != JsonToken.START_ARRAY) return false;
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            if (p.currentToken() != JsonToken.START_OBJECT || !choice(p)) return false;
                        }
                    }
                    case "error" -> {
                        return false;
                    }
                    default -> p.skipChildren();
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Reads a chunk parsed as a tree, whatever its shape (a missing or odd field reads as absent or as its text). */
    void read(JsonNode n) {
        clear();
        id = n.path("id").asText(null);
        model = n.path("model").asText(null);
        usage = n.path("usage").isObject() ? n.get("usage") : null;
        for (JsonNode choice : n.path("choices")) {
            if (choice.path("index").asInt(0) != 0) continue;
            JsonNode delta = choice.path("delta");
            JsonNode calls = delta.path("tool_calls");
            choices.add(new Choice(delta.path("reasoning_content").asText(""), delta.path("content").asText(""),
                    delta.path("refusal").asText(""), calls.size() > 0 ? calls : null,
                    choice.hasNonNull("finish_reason") ? choice.get("finish_reason").asText() : null));
        }
    }

    private void clear() {
        id = null;
        model = null;
        usage = null;
        choices.clear();
    }

    private boolean choice(JsonParser p) throws IOException {
        int index = 0;
        String reasoning = null;
        String content = null;
        String refusal = null;
        JsonNode toolCalls = null;
        String finishReason = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "index" -> {
                    if (value != JsonToken.VALUE_NUMBER_INT) return false;
                    index = p.getIntValue();
                }
                case "finish_reason" -> {
                    if (!textOrNull(value)) return false;
                    finishReason = value == JsonToken.VALUE_NULL ? null : p.getText();
                }
                case "delta" -> {
                    if (value != JsonToken.START_OBJECT) return false;
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String name = p.currentName();
                        JsonToken v = p.nextToken();
                        switch (name) {
                            case "reasoning_content", "content", "refusal" -> {
                                if (!textOrNull(v)) return false;
                                String text = v == JsonToken.VALUE_NULL ? null : p.getText();
                                if (name.equals("content")) content = text;
                                else if (name.equals("refusal")) refusal = text;
                                else reasoning = text;
                            }
                            case "tool_calls" -> {
                                if (v == JsonToken.START_ARRAY) toolCalls = p.readValueAsTree();
                                else if (v != JsonToken.VALUE_NULL) return false;
                            }
                            default -> p.skipChildren();
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (index == 0) choices.add(new Choice(reasoning, content, refusal, toolCalls, finishReason));
        return true;
    }

    private static boolean text(JsonToken t) {
        return t == JsonToken.VALUE_STRING;
    }

    private static boolean textOrNull(JsonToken t) {
        return t == JsonToken.VALUE_STRING || t == JsonToken.VALUE_NULL;
    }
}
