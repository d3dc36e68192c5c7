package dev.modelgateway.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;

/**
 * Type checks on request fields that fail with a 400 naming the field, as
 * {@code Invalid type for 'max_tokens': expected an integer, got a string.}
 */
public final class Fields {
    private Fields() {
    }

    public static String requiredString(ObjectNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) throw GatewayException.invalid(field, "Missing required parameter: '" + field + "'.");
        if (!v.isTextual()) throw wrongType(field, "a string", v);
        if (v.asText().isBlank()) throw GatewayException.invalid(field, "'" + field + "' must not be empty.");
        return v.asText();
    }

    public static ArrayNode requiredArray(ObjectNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) throw GatewayException.invalid(field, "Missing required parameter: '" + field + "'.");
        if (!v.isArray()) throw wrongType(field, "an array", v);
        return (ArrayNode) v;
    }

    public static boolean optionalBoolean(ObjectNode body, String field, boolean dflt) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) return dflt;
        if (!v.isBoolean()) throw wrongType(field, "a boolean", v);
        return v.booleanValue();
    }

    public static long requiredPositiveInt(ObjectNode body, String field) {
        JsonNode v = body.get(field);
        if (v == null || v.isNull()) throw GatewayException.invalid(field, "Missing required parameter: '" + field + "'.");
        return nonNegativeInt(v, field);
    }

    public static long nonNegativeInt(JsonNode v, String field) {
        if (!v.isIntegralNumber()) throw wrongType(field, "an integer", v);
        if (v.longValue() < 0) throw GatewayException.invalid(field, "'" + field + "' must be >= 0, got " + v.longValue() + ".");
        return v.longValue();
    }

    public static ObjectNode optionalObject(JsonNode parent, String field, String path) {
        JsonNode v = parent.get(field);
        if (v == null || v.isNull()) return null;
        if (!v.isObject()) throw wrongType(path, "an object", v);
        return (ObjectNode) v;
    }

    public static GatewayException wrongType(String field, String expected, JsonNode got) {
        return GatewayException.invalid(field, "Invalid type for '" + field + "': expected " + expected + ", got "
                + describe(got) + ".");
    }

    public static String describe(JsonNode v) {
        return switch (v.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> v.isIntegralNumber() ? "an integer" : "a number";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> v.getNodeType().name().toLowerCase();
        };
    }
}
