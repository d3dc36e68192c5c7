package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.json.Json;

import java.io.IOException;
import java.util.Set;

/**
 * A {@code content_block_delta} event, the bulk of every vendor A stream, read with Jackson's streaming parser
 * straight from the event's bytes instead of as a tree. Only the four delta types with a canonical event are
 * read here; anything else (another delta type, a field missing or of an unexpected type) is left to the tree
 * reader, which decides what it means.
 */
final class BlockDelta {
    private static final Set<String> TEXT_FIELDS = Set.of("text", "thinking", "signature", "partial_json");

    private BlockDelta() {
    }

    /** The canonical event of a text, thinking, signature or input JSON delta; null for anything else. */
    static StreamEvent read(byte[] bytes, int offset, int length) {
        boolean typed = false;
        int index = 0;
        String type = null;
        String field = null;
        String text = "";
        try (JsonParser p = Json.MAPPER.createParser(bytes, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "type" -> {
                        if (value != JsonToken.VALUE_STRING || !p.getText().equals("content_block_delta")) return null;
                        typed = true;
                    }
                    case "index" -> {
                        if (value != JsonToken.VALUE_NUMBER_INT) return null;
                        index = p.getIntValue();
                    }
                    case "delta" -> {
                        if (value != JsonToken.START_OBJECT || type != null) return null;
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String inner = p.currentName();
                            JsonToken v = p.nextToken();
                            if (inner.equals("type")) {
                                if (v != JsonToken.VALUE_STRING) return null;
                                type = p.getText();
                            } else if (TEXT_FIELDS.contains(inner)) {
                                if (field != null || v != JsonToken.VALUE_STRING && v != JsonToken.VALUE_NULL) return null;
                                field = inner;
                                text = v == JsonToken.VALUE_NULL ? "" : p.getText();
                            } else {
                                p.skipChildren();
                            }
                        }
                        if (type == null) return null;
                    }
                    default -> p.skipChildren();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        if (!typed || type == null) return null;
        // a text field other than the type's own: the tree reader reads the own one as empty
        return switch (type) {
            case "text_delta" -> own(field, "text") ? new StreamEvent.TextDelta(index, text) : null;
            case "thinking_delta" -> own(field, "thinking") ? new StreamEvent.ReasoningDelta(index, text) : null;
            case "signature_delta" -> own(field, "signature")
                    ? new StreamEvent.SignatureDelta(index, text, SignatureOrigin.ANTHROPIC) : null;
            case "input_json_delta" -> own(field, "partial_json") ? new StreamEvent.ToolArgumentsDelta(index, text) : null;
            default -> null;
        };
    }

    private static boolean own(String field, String expected) {
        return field == null || field.equals(expected);
    }
}
