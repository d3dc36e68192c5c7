package dev.modelgateway.endpoint.scim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.keys.Group;
import dev.modelgateway.endpoint.admin.AdminAccess;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * {@code /Groups} (RFC 7644 §3): list with {@code filter=displayName eq "x"}, create, read, replace, PATCH (members
 * and display name) and delete. Every change recomputes its members' roles from the role mappings in force
 * (docs/identity/scim.md, "Groups and roles").
 */
public final class ScimGroups {
    private static final Group BLANK = new Group(null, null, null, List.of(), Instant.EPOCH, Instant.EPOCH);

    private final Administration admin;
    private final Administration.RoleRules rules;

    public ScimGroups(Administration admin, Administration.RoleRules rules) {
        this.admin = admin;
        this.rules = rules;
    }

    public void list(RoutingContext ctx) {
        ScimReplies.Paging paging = ScimReplies.Paging.of(ctx);
        ScimFilter filter = ScimFilter.parse(ctx.request().getParam("filter"), ScimGroupDoc.FILTERS);
        String base = ScimReplies.base(ctx);
        boolean members = members(ctx);
        ScimReplies.respond(ctx, 200, admin.listGroups(filter == null ? null : filter.value(), paging.offset(), paging.count())
                .map(page -> ScimReplies.list(page, paging, g -> render(g, base, members))));
    }

    public void create(RoutingContext ctx) {
        Group draft = ScimGroupDoc.parse(ScimReplies.body(ctx), BLANK);
        String base = ScimReplies.base(ctx);
        Future<JsonNode> created = admin.createGroup(AdminAccess.actor(ctx), draft, rules).map(g -> {
            ctx.response().putHeader("location", base + "/Groups/" + g.id());
            return ScimGroupDoc.render(g, base);
        });
        ScimReplies.respond(ctx, 201, created);
    }

    public void get(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        String base = ScimReplies.base(ctx);
        boolean members = members(ctx);
        ScimReplies.respond(ctx, 200, ScimReplies.found(admin.findGroup(id), "Group", id, g -> render(g, base, members)));
    }

    /** RFC 7644 §3.4.2.5: {@code excludedAttributes=members}, which Entra sends when it looks a group up, leaves them out. */
    private static boolean members(RoutingContext ctx) {
        String excluded = ctx.request().getParam("excludedAttributes");
        return excluded == null || Arrays.stream(excluded.split(",")).map(String::trim).noneMatch("members"::equalsIgnoreCase);
    }

    private static JsonNode render(Group g, String base, boolean members) {
        ObjectNode o = ScimGroupDoc.render(g, base);
        if (!members) o.remove("members");
        return o;
    }

    public void replace(RoutingContext ctx) {
        ObjectNode body = ScimReplies.body(ctx);
        String id = ctx.pathParam("id");
        String base = ScimReplies.base(ctx);
        ScimGroupDoc.parse(body, BLANK);
        ScimReplies.respond(ctx, 200, ScimReplies.found(admin.editGroup(AdminAccess.actor(ctx), id, g -> ScimGroupDoc.parse(body, g), rules),
                "Group", id, g -> ScimGroupDoc.render(g, base)));
    }

    public void patch(RoutingContext ctx) {
        List<ScimPatchOp> ops = ScimPatchOp.parse(ScimReplies.body(ctx));
        String id = ctx.pathParam("id");
        String base = ScimReplies.base(ctx);
        ScimReplies.respond(ctx, 200, ScimReplies.found(admin.editGroup(AdminAccess.actor(ctx), id, g -> ScimGroupDoc.patch(g, ops), rules),
                "Group", id, g -> ScimGroupDoc.render(g, base)));
    }

    public void delete(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        ScimReplies.noContent(ctx, admin.deleteGroup(AdminAccess.actor(ctx), id, rules), "Group", id);
    }
}
