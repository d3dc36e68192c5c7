package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * Generates a deterministic value satisfying the simple parts of a JSON Schema (also Gemini's upper-case
 * OpenAPI subset): string "sim", number/integer 1, boolean true, array [], object recursing over properties.
 */
final class SchemaFaker {
    private SchemaFaker() {
    }

    static JsonNode fake(JsonNode schema) {
        return fake(schema, 0);
    }

    private static JsonNode fake(JsonNode schema, int depth) {
        if (schema == null || !schema.isObject() || depth > 16) return Json.F.textNode("sim");
        JsonNode en = schema.get("enum");
        if (en != null && en.isArray() && !en.isEmpty()) return en.get(0);
        if (schema.has("const")) return schema.get("const");
        for (String alt : new String[]{"anyOf", "oneOf", "allOf"}) {
            JsonNode a = schema.get(alt);
            if (a != null && a.isArray() && !a.isEmpty()) return fake(firstNonNull(a), depth + 1);
        }
        String type = typeOf(schema);
        return switch (type) {
            case "string" -> Json.F.textNode("sim");
            case "number", "integer" -> Json.F.numberNode(1);
            case "boolean" -> Json.F.booleanNode(true);
            case "array" -> Json.arr();
            case "null" -> Json.F.nullNode();
            case "object" -> {
                ObjectNode o = Json.obj();
                JsonNode props = schema.get("properties");
                if (props != null && props.isObject()) {
                    for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> e = it.next();
                        o.set(e.getKey(), fake(e.getValue(), depth + 1));
                    }
                }
                yield o;
            }
            default -> Json.F.textNode("sim");
        };
    }

    private static JsonNode firstNonNull(JsonNode alternatives) {
        for (JsonNode a : alternatives) if (!"null".equals(typeOf(a))) return a;
        return alternatives.get(0);
    }

    private static String typeOf(JsonNode schema) {
        JsonNode t = schema.get("type");
        if (t != null && t.isTextual()) return t.asText().toLowerCase(Locale.ROOT);
        if (t != null && t.isArray()) {
            for (JsonNode x : t) if (x.isTextual() && !"null".equalsIgnoreCase(x.asText())) return x.asText().toLowerCase(Locale.ROOT);
        }
        if (schema.has("properties")) return "object";
        if (schema.has("items")) return "array";
        return "string";
    }
}
