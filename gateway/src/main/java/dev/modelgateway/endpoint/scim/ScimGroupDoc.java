package dev.modelgateway.endpoint.scim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.keys.Group;
import dev.modelgateway.json.Json;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A group as a SCIM resource (RFC 7643 §4.2) and back: {@code displayName}, {@code externalId}, {@code members}
 * (users' ids in {@code value}). PATCH: {@code members} add, remove (by value list, or by {@code members[value eq "id"]})
 * and replace; {@code displayName} and {@code externalId} replace, with or without a path. Other attributes are
 * ignored, as for users ({@link ScimUserDoc}).
 */
final class ScimGroupDoc {
    static final String SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:Group";
    static final Map<String, String> FILTERS = Map.of("displayname", "displayName");
    private static final int MAX_TEXT = 200;

    private ScimGroupDoc() {
    }

    static ObjectNode render(Group g, String base) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.putArray("schemas").add(SCHEMA);
        o.put("id", g.id());
        if (g.externalId() != null) o.put("externalId", g.externalId());
        o.put("displayName", g.displayName());
        ArrayNode members = o.putArray("members");
        g.members().forEach(m -> members.addObject().put("value", m).put("$ref", base + "/Users/" + m).put("type", "User"));
        o.set("meta", meta("Group", g.createdAt(), g.updatedAt(), base + "/Groups/" + g.id()));
        return o;
    }

    static ObjectNode meta(String type, Instant created, Instant modified, String location) {
        return Json.MAPPER.createObjectNode().put("resourceType", type).put("created", created.toString())
                .put("lastModified", modified.toString()).put("location", location)
                .put("version", "W/\"" + modified.toEpochMilli() + "\"");
    }

    /** The group {@code body} describes (POST, PUT), over {@code current}'s id and times. */
    static Group parse(JsonNode body, Group current) {
        String name = ScimUserDoc.text(body, "displayName", MAX_TEXT);
        if (name == null || name.isBlank()) throw ScimReplies.bad("invalidValue", "displayName is required.");
        JsonNode members = ScimUserDoc.field(body, "members");
        return new Group(current.id(), name.trim(), ScimUserDoc.text(body, "externalId", MAX_TEXT),
                members == null || members.isNull() ? List.of() : ids(members), current.createdAt(), current.updatedAt());
    }

    static Group patch(Group g, List<ScimPatchOp> ops) {
        String name = g.displayName();
        String externalId = g.externalId();
        Set<String> members = new LinkedHashSet<>(g.members());
        for (ScimPatchOp op : ops) {
            if (op.path() == null) {
                for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) op.value().properties()::iterator) {
                    switch (e.getKey().toLowerCase(Locale.ROOT)) {
                        case "displayname" -> name = required(e.getValue());
                        case "externalid" -> externalId = e.getValue().isNull() ? null : e.getValue().asText();
                        case "members" -> {
                            if (op.op() == ScimPatchOp.Kind.REPLACE) members.clear();
                            members.addAll(ids(e.getValue()));
                        }
                        default -> { }
                    }
                }
                continue;
            }
            ScimPath path = ScimPath.parse(op.path(), SCHEMA);
            if (path.attribute() == null) continue;
            switch (path.attribute()) {
                case "displayname" -> {
                    if (op.op() == ScimPatchOp.Kind.REMOVE) throw ScimReplies.bad("invalidValue", "displayName is required.");
                    name = required(op.value());
                }
                case "externalid" -> externalId = op.op() == ScimPatchOp.Kind.REMOVE ? null : op.value().asText();
                case "members" -> {
                    if (path.filtered()) {
                        if (op.op() != ScimPatchOp.Kind.REMOVE || !"value".equals(path.filterAttr())) {
                            throw ScimReplies.bad("invalidPath", "Only a remove may name members by filter, as members[value eq \"id\"].");
                        }
                        members.remove(path.filterValue());
                    } else if (op.op() == ScimPatchOp.Kind.REMOVE) {
                        if (op.value() == null || op.value().isNull()) members.clear();
                        else members.removeAll(ids(op.value()));
                    } else {
                        if (op.op() == ScimPatchOp.Kind.REPLACE) members.clear();
                        members.addAll(ids(op.value()));
                    }
                }
                case "id", "meta" -> throw ScimReplies.bad("mutability", "The attribute '" + path.attribute() + "' is read-only.");
                default -> { }
            }
        }
        if (name.length() > MAX_TEXT) throw ScimReplies.bad("invalidValue", "displayName is longer than " + MAX_TEXT + " characters.");
        return new Group(g.id(), name, externalId, new ArrayList<>(members), g.createdAt(), g.updatedAt());
    }

    private static String required(JsonNode v) {
        if (v == null || !v.isTextual() || v.asText().isBlank()) throw ScimReplies.bad("invalidValue", "displayName must be a non-empty string.");
        return v.asText().trim();
    }

    /** {@code [{"value":"usr_..."}]} (or one such object) to ids. */
    private static List<String> ids(JsonNode members) {
        List<String> ids = new ArrayList<>();
        for (JsonNode m : members.isArray() ? members : Json.MAPPER.createArrayNode().add(members)) {
            JsonNode v = m.isObject() ? ScimUserDoc.field(m, "value") : null;
            if (v == null || !v.isTextual()) throw ScimReplies.bad("invalidValue", "Each member needs a 'value': a user's id.");
            ids.add(v.asText());
        }
        return ids;
    }
}
