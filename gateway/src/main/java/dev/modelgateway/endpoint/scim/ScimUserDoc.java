package dev.modelgateway.endpoint.scim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.keys.Person;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.json.Json;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A user as a SCIM resource (RFC 7643 §4.1) and back. Supported attributes: {@code userName}, {@code name.givenName},
 * {@code name.familyName}, {@code displayName}, {@code emails} (one address is kept: the {@code work} one, else the
 * primary, else the first), {@code active}, {@code externalId}; {@code groups} is read-only. In a POST or PUT body,
 * read-only attributes ({@code id}, {@code meta}, {@code groups}) are ignored (RFC 7644 §3.3, §3.5.1), and so are
 * attributes this gateway does not keep (an extension's, {@code phoneNumbers}...), which identity providers send as
 * a matter of course; a PATCH that names a read-only attribute is a 400 {@code mutability}.
 */
final class ScimUserDoc {
    static final String SCHEMA = "urn:ietf:params:scim:schemas:core:2.0:User";
    /** Lower-cased top-level attribute → its name in a resource. */
    private static final Map<String, String> ATTRIBUTES = Map.of("username", "userName", "displayname", "displayName",
            "externalid", "externalId", "active", "active", "name", "name", "emails", "emails");
    private static final Map<String, String> NAME_PARTS = Map.of("givenname", "givenName", "familyname", "familyName",
            "formatted", "formatted");
    private static final List<String> READ_ONLY = List.of("id", "meta", "groups");
    static final Map<String, String> FILTERS = Map.of("username", "userName", "externalid", "externalId");
    /** The columns' widths (V19): a longer value is a 400, never a database error. */
    private static final int MAX_TEXT = 200;
    private static final int MAX_EMAIL = 320;

    private ScimUserDoc() {
    }

    static ObjectNode render(Person p, String base) {
        User u = p.user();
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.putArray("schemas").add(SCHEMA);
        o.put("id", u.id());
        if (u.externalId() != null) o.put("externalId", u.externalId());
        o.put("userName", u.userName());
        ObjectNode name = o.putObject("name");
        if (p.givenName() != null) name.put("givenName", p.givenName());
        if (p.familyName() != null) name.put("familyName", p.familyName());
        if (u.displayName() != null) o.put("displayName", u.displayName());
        ArrayNode emails = o.putArray("emails");
        if (u.email() != null) emails.addObject().put("value", u.email()).put("type", "work").put("primary", true);
        o.put("active", u.active());
        ArrayNode groups = o.putArray("groups");
        for (Person.Membership g : p.groups()) {
            groups.addObject().put("value", g.groupId()).put("display", g.displayName()).put("$ref", base + "/Groups/" + g.groupId());
        }
        o.set("meta", ScimGroupDoc.meta("User", u.createdAt(), u.updatedAt(), base + "/Users/" + u.id()));
        return o;
    }

    /**
     * The person {@code body} describes, over {@code current} (its id, grants and groups stay); {@code active} absent
     * keeps the current value.
     */
    static Person parse(JsonNode body, Person current) {
        String userName = text(body, "userName", MAX_TEXT);
        if (userName == null || userName.isBlank()) throw ScimReplies.bad("invalidValue", "userName is required.");
        JsonNode name = field(body, "name");
        String given = name != null && name.isObject() ? text(name, "givenName", MAX_TEXT) : null;
        String family = name != null && name.isObject() ? text(name, "familyName", MAX_TEXT) : null;
        JsonNode active = field(body, "active");
        return current.with(userName.trim(), given, family, text(body, "displayName", MAX_TEXT), email(field(body, "emails")),
                text(body, "externalId", MAX_TEXT), active == null || active.isNull() ? current.user().active() : bool("active", active));
    }

    /** Applies PATCH operations to {@code resource} (as {@link #render} made it), in order, in place. */
    static void patch(ObjectNode resource, List<ScimPatchOp> ops) {
        for (ScimPatchOp op : ops) {
            if (op.path() == null) {
                for (Iterator<Map.Entry<String, JsonNode>> it = op.value().properties().iterator(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (e.getKey().contains(".") || e.getKey().contains("[")) {
                        apply(resource, op.op(), ScimPath.parse(e.getKey(), SCHEMA), e.getValue(), true);
                    } else {
                        apply(resource, op.op(), new ScimPath(e.getKey().toLowerCase(Locale.ROOT), null, null, null), e.getValue(), true);
                    }
                }
            } else {
                apply(resource, op.op(), ScimPath.parse(op.path(), SCHEMA), op.value(), false);
            }
        }
    }

    /** @param inValue whether the attribute came inside a path-less value, where read-only ones are ignored */
    private static void apply(ObjectNode doc, ScimPatchOp.Kind op, ScimPath path, JsonNode value, boolean inValue) {
        if (path.attribute() == null) return;
        if (READ_ONLY.contains(path.attribute()) || path.attribute().equals("schemas")) {
            if (inValue) return;
            throw ScimReplies.bad("mutability", "The attribute '" + path.attribute() + "' is read-only.");
        }
        String attr = ATTRIBUTES.get(path.attribute());
        if (attr == null) return;
        switch (attr) {
            case "name" -> name(doc, op, path, value);
            case "emails" -> emails(doc, op, path, value);
            default -> {
                if (path.filtered() || path.sub() != null) throw ScimReplies.bad("invalidPath", "'" + attr + "' has no sub-attributes.");
                if (op == ScimPatchOp.Kind.REMOVE) doc.remove(attr);
                else doc.set(attr, value);
            }
        }
    }

    private static void name(ObjectNode doc, ScimPatchOp.Kind op, ScimPath path, JsonNode value) {
        if (path.filtered()) throw ScimReplies.bad("invalidPath", "'name' is not multi-valued.");
        ObjectNode name = doc.with("name");
        if (path.sub() == null) {
            if (op == ScimPatchOp.Kind.REMOVE) {
                name.removeAll();
                return;
            }
            if (!value.isObject()) throw ScimReplies.bad("invalidValue", "'name' takes an object.");
            value.properties().forEach(e -> {
                String part = NAME_PARTS.get(e.getKey().toLowerCase(Locale.ROOT));
                if (part != null) name.set(part, e.getValue());
            });
            return;
        }
        String part = NAME_PARTS.get(path.sub());
        if (part == null) return;
        if (op == ScimPatchOp.Kind.REMOVE) name.remove(part);
        else name.set(part, value);
    }

    private static void emails(ObjectNode doc, ScimPatchOp.Kind op, ScimPath path, JsonNode value) {
        ArrayNode emails = doc.withArray("emails");
        if (!path.filtered()) {
            if (path.sub() != null) throw ScimReplies.bad("invalidPath", "Name an address of 'emails' with a filter, as emails[type eq \"work\"].value.");
            if (op == ScimPatchOp.Kind.REMOVE) {
                emails.removeAll();
                return;
            }
            ArrayNode given = value.isArray() ? (ArrayNode) value : Json.MAPPER.createArrayNode().add(value);
            if (op == ScimPatchOp.Kind.ADD) {
                // the new address first: it is the one kept
                ArrayNode merged = Json.MAPPER.createArrayNode().addAll(given).addAll(emails);
                doc.set("emails", merged);
            } else {
                doc.set("emails", given);
            }
            return;
        }
        boolean found = false;
        for (int i = emails.size() - 1; i >= 0; i--) {
            JsonNode e = emails.get(i);
            if (!e.path(path.filterAttr()).asText().equalsIgnoreCase(path.filterValue())) continue;
            found = true;
            if (op == ScimPatchOp.Kind.REMOVE) {
                if (path.sub() == null || path.sub().equals("value")) emails.remove(i);
            } else if (path.sub() == null) {
                emails.set(i, value);
            } else {
                ((ObjectNode) e).set(path.sub(), value);
            }
        }
        if (!found && op != ScimPatchOp.Kind.REMOVE) {
            ObjectNode added = Json.MAPPER.createObjectNode().put(path.filterAttr(), path.filterValue());
            if (path.sub() == null && value.isObject()) added.setAll((ObjectNode) value);
            else added.set(path.sub() == null ? "value" : path.sub(), value);
            emails.insert(0, added);
        }
    }

    /** The address kept: the {@code work} one, else the primary, else the first. */
    private static String email(JsonNode emails) {
        if (emails == null || emails.isNull()) return null;
        if (!emails.isArray()) throw ScimReplies.bad("invalidValue", "emails must be an array.");
        JsonNode chosen = null;
        for (JsonNode e : emails) if (e.path("type").asText().equalsIgnoreCase("work")) { chosen = e; break; }
        if (chosen == null) for (JsonNode e : emails) if (bool("emails.primary", e.path("primary"))) { chosen = e; break; }
        if (chosen == null && !emails.isEmpty()) chosen = emails.get(0);
        return chosen == null ? null : text(chosen, "value", MAX_EMAIL);
    }

    /** A member, case-insensitively (RFC 7643 §2.1). */
    static JsonNode field(JsonNode o, String name) {
        for (Iterator<Map.Entry<String, JsonNode>> it = o.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getKey().equalsIgnoreCase(name)) return e.getValue();
        }
        return null;
    }

    static String text(JsonNode o, String name, int max) {
        JsonNode v = field(o, name);
        if (v == null || v.isNull()) return null;
        if (!v.isTextual()) throw ScimReplies.bad("invalidValue", name + " must be a string.");
        if (v.asText().length() > max) throw ScimReplies.bad("invalidValue", name + " is longer than " + max + " characters.");
        return v.asText();
    }

    /** A boolean, or its text in any case: Entra sends {@code "False"}. Missing is false. */
    static boolean bool(String name, JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) return false;
        if (v.isBoolean()) return v.asBoolean();
        if (v.isTextual() && (v.asText().equalsIgnoreCase("true") || v.asText().equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(v.asText().toLowerCase(Locale.ROOT));
        }
        throw ScimReplies.bad("invalidValue", name + " must be a boolean.");
    }
}
