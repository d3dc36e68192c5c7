package dev.modelgateway.endpoint.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.access.Grant;
import dev.modelgateway.access.Reach;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.accounts.keys.Person;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import static dev.modelgateway.endpoint.admin.AdminReplies.actor;
import static dev.modelgateway.endpoint.admin.AdminReplies.body;
import static dev.modelgateway.endpoint.admin.AdminReplies.respond;
import static dev.modelgateway.endpoint.admin.AdminReplies.textParam;

/**
 * {@code /admin/users} (docs/accounts.md, "Users"): the people the gateway knows, as far as the principal reaches (a
 * team admin sees the users holding a role in its teams), and their suspension ({@code active}), which shares the
 * accounts' lifecycle with SCIM: deactivating a user disables its keys at once.
 */
public final class UsersEndpoint {
    /** The most users one listing reads before it keeps those in reach. */
    private static final int SCAN = 10_000;

    private final Administration accounts;
    private final Administration.RoleRules rules;

    public UsersEndpoint(Administration accounts, Administration.RoleRules rules) {
        this.accounts = accounts;
        this.rules = rules;
    }

    public void list(RoutingContext ctx) {
        Long limit = KeyRequests.limit("limit", textParam(ctx, "limit"));
        if (limit != null && limit > 1000) throw GatewayException.invalid("limit", "'limit' must be at most 1000.");
        int max = limit == null ? 100 : limit.intValue();
        Reach reach = AdminAccess.reach(ctx);
        respond(ctx, accounts.listPeople(null, null, 0, reach.org() ? max : SCAN).map(page -> AdminReplies.list(page.items().stream()
                .filter(p -> reaches(reach, p.user())).limit(max).map(UsersEndpoint::json).toList())));
    }

    public void get(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        Reach reach = AdminAccess.reach(ctx);
        respond(ctx, accounts.findPerson(id).map(p -> json(reachable(reach, id, p.orElse(null)))));
    }

    /** Only {@code active} may be set here; the rest is the identity provider's (SCIM) or the sign-in's. */
    public void update(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        ObjectNode body = body(ctx);
        body.properties().forEach(e -> {
            if (!e.getKey().equals("active")) throw GatewayException.invalid(e.getKey(), "Unknown field '" + e.getKey() + "'; only 'active' may be set.");
        });
        JsonNode active = body.get("active");
        if (active == null || !active.isBoolean()) throw GatewayException.invalid("active", "'active' must be true or false.");
        Reach reach = AdminAccess.reach(ctx);
        respond(ctx, accounts.findPerson(id).compose(found -> {
            reachable(reach, id, found.orElse(null));
            return accounts.editPerson(actor(ctx), id, p -> {
                User u = p.user();
                return p.with(u.userName(), p.givenName(), p.familyName(), u.displayName(), u.email(), u.externalId(), active.asBoolean());
            }, rules);
        }).compose(p -> p.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(notFound(id)))).map(UsersEndpoint::json));
    }

    private static Person reachable(Reach reach, String id, Person p) {
        if (p == null) throw notFound(id);
        if (!reaches(reach, p.user())) throw AdminAccess.outsideReach("User " + id + " holds no role in a team this credential administers.");
        return p;
    }

    /** The organisation's reach sees everyone; a team's, the users holding a role in the team; one's own, oneself. */
    private static boolean reaches(Reach reach, User u) {
        if (reach.org() || u.id().equals(reach.owner())) return true;
        return u.grants().stream().anyMatch(g -> g.scope().teamId() != null && reach.teams().contains(g.scope().teamId()));
    }

    static ObjectNode json(Person p) {
        User u = p.user();
        ObjectNode o = Json.MAPPER.createObjectNode().put("id", u.id()).put("object", "user").put("user_name", u.userName())
                .put("email", u.email()).put("display_name", u.displayName()).put("external_id", u.externalId())
                .put("active", u.active());
        ArrayNode grants = o.putArray("grants");
        for (Grant g : u.grants()) grants.addObject().put("role", g.role() == null ? null : g.role().wire).put("scope", g.scope().wire());
        o.set("groups", AdminReplies.strings(p.groupNames()));
        o.put("created_at", u.createdAt().toString()).put("updated_at", u.updatedAt().toString());
        return o;
    }

    private static GatewayException notFound(String id) {
        return GatewayException.of(ErrorKind.NOT_FOUND, "No user with id '" + id + "'.").withParam("id").withCode("user_not_found");
    }
}
