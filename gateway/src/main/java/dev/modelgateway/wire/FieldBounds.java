package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

import java.util.List;

/**
 * Range and enum checks of optional request fields, each failing with a 400 naming the field, for the inbound
 * rules of every caller protocol (the bounds are the vendors' own, from their OpenAPI documents). An absent or
 * null field passes: the vendor's default applies.
 */
public final class FieldBounds {
    private FieldBounds() { }

    /** The field's node when it is present and not null, else null. */
    public static JsonNode given(JsonNode parent, String field) {
        JsonNode v = parent == null ? null : parent.get(field);
        return v == null || v.isNull() ? null : v;
    }

    public static void number(JsonNode parent, String field, String path, double min, double max) {
        JsonNode v = given(parent, field);
        if (v == null) return;
        if (!v.isNumber()) throw Fields.wrongType(path, "a number", v);
        double d = v.doubleValue();
        if (d < min || d > max) {
            throw GatewayException.invalid(path, "Invalid value for '" + path + "': expected a number from " + plain(min)
                    + " to " + plain(max) + ", got " + v.asText() + ".");
        }
    }

    public static void integer(JsonNode parent, String field, String path, long min, long max) {
        JsonNode v = given(parent, field);
        if (v == null) return;
        if (!v.isIntegralNumber()) throw Fields.wrongType(path, "an integer", v);
        if (!v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
            throw GatewayException.invalid(path, "Invalid value for '" + path + "': expected an integer from " + min
                    + (max == Long.MAX_VALUE ? " up" : " to " + max) + ", got " + v.asText() + ".");
        }
    }

    public static void bool(JsonNode parent, String field, String path) {
        JsonNode v = given(parent, field);
        if (v != null && !v.isBoolean()) throw Fields.wrongType(path, "a boolean", v);
    }

    /** A string that must be one of {@code allowed}. */
    public static void oneOf(JsonNode parent, String field, String path, List<String> allowed) {
        JsonNode v = given(parent, field);
        if (v == null) return;
        if (!v.isTextual()) throw Fields.wrongType(path, "a string", v);
        if (!allowed.contains(v.asText())) {
            throw GatewayException.invalid(path, "Invalid value for '" + path + "': '" + v.asText() + "'; expected one of "
                    + String.join(", ", allowed) + ".");
        }
    }

    /** The field as an object, or null when absent; any other type is a 400. */
    public static JsonNode object(JsonNode parent, String field, String path) {
        JsonNode v = given(parent, field);
        if (v != null && !v.isObject()) throw Fields.wrongType(path, "an object", v);
        return v;
    }

    private static String plain(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
