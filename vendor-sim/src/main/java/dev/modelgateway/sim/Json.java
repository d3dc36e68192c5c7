package dev.modelgateway.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Shared Jackson plumbing (one mapper for the whole simulator). */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
    static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Json() {
    }

    static ObjectNode obj() {
        return F.objectNode();
    }

    static ArrayNode arr() {
        return F.arrayNode();
    }

    static String write(JsonNode n) {
        try {
            return MAPPER.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String writePretty(JsonNode n) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Text value or null when missing / not textual. */
    static String text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }
}
