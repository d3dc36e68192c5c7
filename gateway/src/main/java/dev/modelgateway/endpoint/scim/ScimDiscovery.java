package dev.modelgateway.endpoint.scim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.util.List;

/**
 * The discovery documents (RFC 7644 §4, RFC 7643 §5–7): what this service provider supports (PATCH and filter yes;
 * bulk, sort, ETags and password changes no; a Bearer token), its two resource types and their schemas, listing the
 * attributes it keeps.
 */
public final class ScimDiscovery {
    private static final String CORE = "urn:ietf:params:scim:schemas:core:2.0:";

    public void serviceProviderConfig(RoutingContext ctx) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.putArray("schemas").add(CORE + "ServiceProviderConfig");
        o.putObject("patch").put("supported", true);
        o.putObject("bulk").put("supported", false).put("maxOperations", 0).put("maxPayloadSize", 0);
        o.putObject("filter").put("supported", true).put("maxResults", ScimReplies.MAX_RESULTS);
        o.putObject("changePassword").put("supported", false);
        o.putObject("sort").put("supported", false);
        o.putObject("etag").put("supported", false);
        o.putArray("authenticationSchemes").addObject().put("type", "oauthbearertoken").put("name", "Bearer token")
                .put("description", "An admin key with the scim permission, sent as Authorization: Bearer.").put("primary", true);
        o.set("meta", Json.MAPPER.createObjectNode().put("resourceType", "ServiceProviderConfig")
                .put("location", ScimReplies.base(ctx) + "/ServiceProviderConfig"));
        ScimReplies.respond(ctx, 200, Future.succeededFuture(o));
    }

    public void resourceTypes(RoutingContext ctx) {
        String base = ScimReplies.base(ctx);
        ScimReplies.respond(ctx, 200, Future.succeededFuture(ScimReplies.list(List.of(
                resourceType("User", "/Users", ScimUserDoc.SCHEMA, base), resourceType("Group", "/Groups", ScimGroupDoc.SCHEMA, base)))));
    }

    public void schemas(RoutingContext ctx) {
        String base = ScimReplies.base(ctx);
        ObjectNode user = schema(ScimUserDoc.SCHEMA, "User", base);
        ArrayNode ua = user.putArray("attributes");
        ua.add(attribute("userName", "string", false, true, "readWrite", "server"));
        ObjectNode name = attribute("name", "complex", false, false, "readWrite", "none");
        name.putArray("subAttributes").add(attribute("givenName", "string", false, false, "readWrite", "none"))
                .add(attribute("familyName", "string", false, false, "readWrite", "none"));
        ua.add(name);
        ua.add(attribute("displayName", "string", false, false, "readWrite", "none"));
        ObjectNode emails = attribute("emails", "complex", true, false, "readWrite", "none");
        emails.putArray("subAttributes").add(attribute("value", "string", false, false, "readWrite", "none"))
                .add(attribute("type", "string", false, false, "readWrite", "none"))
                .add(attribute("primary", "boolean", false, false, "readWrite", "none"));
        ua.add(emails);
        ua.add(attribute("active", "boolean", false, false, "readWrite", "none"));
        ua.add(attribute("externalId", "string", false, false, "readWrite", "none"));
        ObjectNode groups = attribute("groups", "complex", true, false, "readOnly", "none");
        groups.putArray("subAttributes").add(attribute("value", "string", false, false, "readOnly", "none"))
                .add(attribute("display", "string", false, false, "readOnly", "none"));
        ua.add(groups);
        ObjectNode group = schema(ScimGroupDoc.SCHEMA, "Group", base);
        ArrayNode ga = group.putArray("attributes");
        ga.add(attribute("displayName", "string", false, true, "readWrite", "server"));
        ga.add(attribute("externalId", "string", false, false, "readWrite", "none"));
        ObjectNode members = attribute("members", "complex", true, false, "readWrite", "none");
        members.putArray("subAttributes").add(attribute("value", "string", false, false, "immutable", "none"));
        ga.add(members);
        ScimReplies.respond(ctx, 200, Future.succeededFuture(ScimReplies.list(List.of(user, group))));
    }

    private static JsonNode resourceType(String name, String endpoint, String schema, String base) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.putArray("schemas").add(CORE + "ResourceType");
        o.put("id", name).put("name", name).put("endpoint", endpoint).put("schema", schema);
        o.set("meta", Json.MAPPER.createObjectNode().put("resourceType", "ResourceType").put("location", base + "/ResourceTypes/" + name));
        return o;
    }

    private static ObjectNode schema(String id, String name, String base) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.putArray("schemas").add(CORE + "Schema");
        o.put("id", id).put("name", name);
        o.set("meta", Json.MAPPER.createObjectNode().put("resourceType", "Schema").put("location", base + "/Schemas/" + id));
        return o;
    }

    private static ObjectNode attribute(String name, String type, boolean multi, boolean required, String mutability, String uniqueness) {
        return Json.MAPPER.createObjectNode().put("name", name).put("type", type).put("multiValued", multi).put("required", required)
                .put("caseExact", false).put("mutability", mutability).put("returned", "default").put("uniqueness", uniqueness);
    }
}
