package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;

import java.util.ArrayList;
import java.util.List;

/**
 * Typed reads of request JSON that fail with a 400 naming the offending field ({@code messages[2].content}),
 * so every decoder reports bad input the same way.
 */
public final class FieldReader {
    private FieldReader() { }

    public static String path(String parent, String field) {
        return parent == null || parent.isEmpty() ? field : parent + "." + field;
    }

    public static String path(String parent, int index) {
        return parent + "[" + index + "]";
    }

    public static boolean present(JsonNode obj, String field) {
        JsonNode v = obj.get(field);
        return v != null && !v.isNull();
    }

    public static JsonNode requireObject(JsonNode node, String path) {
        if (node == null || !node.isObject()) throw GatewayException.invalid(path, "'" + path + "' must be an object");
        return node;
    }

    public static JsonNode requireArray(JsonNode obj, String field, String parent) {
        JsonNode v = obj.get(field);
        String p = path(parent, field);
        if (v == null || v.isNull()) throw GatewayException.invalid(p, "'" + p + "' is required");
        if (!v.isArray()) throw GatewayException.invalid(p, "'" + p + "' must be an array");
        return v;
    }

    public static JsonNode optArray(JsonNode obj, String field, String parent) {
        if (!present(obj, field)) return null;
        JsonNode v = obj.get(field);
        if (!v.isArray()) throw GatewayException.invalid(path(parent, field), "'" + path(parent, field) + "' must be an array");
        return v;
    }

    public static String requireString(JsonNode obj, String field, String parent) {
        String v = optString(obj, field, parent);
        if (v == null) throw GatewayException.invalid(path(parent, field), "'" + path(parent, field) + "' is required");
        return v;
    }

    public static String optString(JsonNode obj, String field, String parent) {
        if (!present(obj, field)) return null;
        JsonNode v = obj.get(field);
        if (!v.isTextual()) throw GatewayException.invalid(path(parent, field), "'" + path(parent, field) + "' must be a string");
        return v.asText();
    }

    public static Integer optInt(JsonNode obj, String field, String parent) {
        if (!present(obj, field)) return null;
        JsonNode v = obj.get(field);
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw GatewayException.invalid(path(parent, field), "'" + path(parent, field) + "' must be an integer");
        }
        return v.intValue();
    }

    public static Double optNumber(JsonNode obj, String field, String parent) {
        if (!present(obj, field)) return null;
        JsonNode v = obj.get(field);
        if (!v.isNumber()) throw GatewayException.invalid(path(parent, field), "'" + path(parent, field) + "' must be a number");
        return v.doubleValue();
    }

    public static Boolean optBool(JsonNode obj, String field, String parent) {
        if (!present(obj, field)) return null;
        JsonNode v = obj.get(field);
        if (!v.isBoolean()) throw GatewayException.invalid(path(parent, field), "'" + path(parent, field) + "' must be a boolean");
        return v.booleanValue();
    }

    /** A string or an array of strings (stop sequences). */
    public static List<String> optStrings(JsonNode obj, String field, String parent) {
        if (!present(obj, field)) return List.of();
        JsonNode v = obj.get(field);
        String p = path(parent, field);
        if (v.isTextual()) return List.of(v.asText());
        if (!v.isArray()) throw GatewayException.invalid(p, "'" + p + "' must be a string or an array of strings");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            if (!v.get(i).isTextual()) throw GatewayException.invalid(path(p, i), "'" + path(p, i) + "' must be a string");
            out.add(v.get(i).asText());
        }
        return out;
    }
}
