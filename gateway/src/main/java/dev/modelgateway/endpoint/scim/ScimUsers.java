package dev.modelgateway.endpoint.scim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.keys.Person;
import dev.modelgateway.accounts.keys.User;
import dev.modelgateway.accounts.keys.UserStore;
import dev.modelgateway.endpoint.admin.AdminAccess;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.util.List;

/**
 * {@code /Users} (RFC 7644 §3): list with {@code filter=userName eq "x"} or {@code externalId eq "x"} and paging,
 * create (201; 409 {@code uniqueness} on a taken user name), read, replace, PATCH and delete. Setting {@code active}
 * to false (PATCH or PUT) or deleting the user disables its keys at once (docs/identity/scim.md, "Deactivation").
 */
public final class ScimUsers {
    private static final Person BLANK = new Person(new User(null, null, null, null, null, true, List.of(), Instant.EPOCH, Instant.EPOCH),
            null, null, List.of());

    private final Administration admin;
    private final Administration.RoleRules rules;

    public ScimUsers(Administration admin, Administration.RoleRules rules) {
        this.admin = admin;
        this.rules = rules;
    }

    public void list(RoutingContext ctx) {
        ScimReplies.Paging paging = ScimReplies.Paging.of(ctx);
        ScimFilter filter = ScimFilter.parse(ctx.request().getParam("filter"), ScimUserDoc.FILTERS);
        UserStore.Field field = filter == null ? null : filter.attribute().equals("userName") ? UserStore.Field.USER_NAME : UserStore.Field.EXTERNAL_ID;
        String base = ScimReplies.base(ctx);
        ScimReplies.respond(ctx, 200, admin.listPeople(field, filter == null ? null : filter.value(), paging.offset(), paging.count())
                .map(page -> ScimReplies.list(page, paging, p -> ScimUserDoc.render(p, base))));
    }

    public void create(RoutingContext ctx) {
        Person draft = ScimUserDoc.parse(ScimReplies.body(ctx), BLANK);
        String base = ScimReplies.base(ctx);
        Future<JsonNode> created = admin.createPerson(AdminAccess.actor(ctx), draft, rules).map(p -> {
            ctx.response().putHeader("location", base + "/Users/" + p.user().id());
            return ScimUserDoc.render(p, base);
        });
        ScimReplies.respond(ctx, 201, created);
    }

    public void get(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        String base = ScimReplies.base(ctx);
        ScimReplies.respond(ctx, 200, ScimReplies.found(admin.findPerson(id), "User", id, p -> ScimUserDoc.render(p, base)));
    }

    public void replace(RoutingContext ctx) {
        ObjectNode body = ScimReplies.body(ctx);
        String id = ctx.pathParam("id");
        String base = ScimReplies.base(ctx);
        ScimUserDoc.parse(body, BLANK); // a bad body is a 400 before the transaction
        ScimReplies.respond(ctx, 200, ScimReplies.found(admin.editPerson(AdminAccess.actor(ctx), id, p -> ScimUserDoc.parse(body, p), rules),
                "User", id, p -> ScimUserDoc.render(p, base)));
    }

    public void patch(RoutingContext ctx) {
        List<ScimPatchOp> ops = ScimPatchOp.parse(ScimReplies.body(ctx));
        String id = ctx.pathParam("id");
        String base = ScimReplies.base(ctx);
        ScimReplies.respond(ctx, 200, ScimReplies.found(admin.editPerson(AdminAccess.actor(ctx), id, p -> {
            ObjectNode resource = ScimUserDoc.render(p, base);
            ScimUserDoc.patch(resource, ops);
            return ScimUserDoc.parse(resource, p);
        }, rules), "User", id, p -> ScimUserDoc.render(p, base)));
    }

    public void delete(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        ScimReplies.noContent(ctx, admin.deletePerson(AdminAccess.actor(ctx), id), "User", id);
    }
}
