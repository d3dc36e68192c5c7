package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Set;

/**
 * JSON Schema → Gemini's OpenAPI-3.0 subset {@code Schema}, for the legacy {@code parameters} field. Gemini
 * rejects unknown keywords ("Unknown name additionalProperties"), so this resolves local {@code $ref}s,
 * turns {@code const} into a one-value enum and {@code type:[x,"null"]} into {@code nullable}, and drops the
 * rest. The default path sends the schema untouched as {@code parametersJsonSchema} instead.
 */
public final class GeminiSchema {
    private static final Set<String> KEPT = Set.of("type", "format", "title", "description", "nullable", "enum",
            "items", "minItems", "maxItems", "properties", "required", "anyOf", "propertyOrdering", "minimum",
            "maximum", "minLength", "maxLength", "pattern", "minProperties", "maxProperties");
    private static final int MAX_DEPTH = 32;

    private GeminiSchema() { }

    public static JsonNode subset(JsonNode schema) {
        return convert(schema, schema, 0);
    }

    private static JsonNode convert(JsonNode node, JsonNode root, int depth) {
        if (node == null || !node.isObject() || depth > MAX_DEPTH) return JsonNodeFactory.instance.objectNode();
        if (node.has("$ref")) {
            JsonNode target = resolve(node.get("$ref").asText(), root);
            return convert(target, root, depth + 1);
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        node.properties().forEach(e -> {
            String k = e.getKey();
            JsonNode v = e.getValue();
            switch (k) {
                case "properties" -> {
                    ObjectNode props = out.putObject("properties");
                    v.properties().forEach(p -> props.set(p.getKey(), convert(p.getValue(), root, depth + 1)));
                }
                case "items" -> out.set("items", convert(v, root, depth + 1));
                case "anyOf", "oneOf" -> {
                    ArrayNode any = out.putArray("anyOf");
                    for (JsonNode alt : v) any.add(convert(alt, root, depth + 1));
                }
                case "const" -> out.putArray("enum").add(v);
                case "type" -> {
                    if (v.isArray()) {
                        for (JsonNode t : v) {
                            if (t.asText().equals("null")) out.put("nullable", true);
                            else out.put("type", t.asText());
                        }
                    } else out.set("type", v);
                }
                default -> {
                    if (KEPT.contains(k)) out.set(k, v);
                }
            }
        });
        return out;
    }

    private static JsonNode resolve(String ref, JsonNode root) {
        if (!ref.startsWith("#/")) return JsonNodeFactory.instance.objectNode();
        JsonNode cur = root;
        for (String seg : ref.substring(2).split("/")) cur = cur.path(seg.replace("~1", "/").replace("~0", "~"));
        return cur;
    }
}
