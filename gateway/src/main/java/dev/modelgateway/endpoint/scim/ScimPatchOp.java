package dev.modelgateway.endpoint.scim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One operation of a PatchOp body (RFC 7644 §3.5.2): {@code op} is {@code add}, {@code replace} or {@code remove},
 * whatever its case (Entra sends {@code Replace}); {@code path} may be absent for add and replace, whose value is then
 * an object of attributes; a remove needs a path ({@code noTarget} otherwise).
 */
record ScimPatchOp(Kind op, String path, JsonNode value) {
    static final String SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

    enum Kind { ADD, REPLACE, REMOVE }

    static List<ScimPatchOp> parse(ObjectNode body) {
        JsonNode ops = body.get("Operations");
        if (ops == null) ops = body.get("operations");
        if (ops == null || !ops.isArray() || ops.isEmpty()) {
            throw ScimReplies.bad("invalidSyntax", "A PatchOp body needs a non-empty 'Operations' array.");
        }
        List<ScimPatchOp> out = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            JsonNode o = ops.get(i);
            String at = "Operations[" + i + "]";
            if (!o.isObject() || !o.path("op").isTextual()) throw ScimReplies.bad("invalidSyntax", at + ".op is required.");
            Kind kind = switch (o.get("op").asText().toLowerCase(Locale.ROOT)) {
                case "add" -> Kind.ADD;
                case "replace" -> Kind.REPLACE;
                case "remove" -> Kind.REMOVE;
                default -> throw ScimReplies.bad("invalidSyntax", at + ".op must be add, replace or remove, not '" + o.get("op").asText() + "'.");
            };
            String path = o.hasNonNull("path") ? o.get("path").asText() : null;
            if (path != null && path.isBlank()) path = null;
            JsonNode value = o.get("value");
            if (kind == Kind.REMOVE && path == null) throw ScimReplies.bad("noTarget", at + ": a remove needs a path.");
            if (kind != Kind.REMOVE && (value == null || value.isNull())) throw ScimReplies.bad("invalidSyntax", at + ".value is required.");
            if (kind != Kind.REMOVE && path == null && !value.isObject()) {
                throw ScimReplies.bad("invalidSyntax", at + ".value must be an object of attributes when there is no path.");
            }
            out.add(new ScimPatchOp(kind, path, value));
        }
        return out;
    }
}
