package dev.modelgateway.endpoint.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Principal;
import dev.modelgateway.access.Reach;
import dev.modelgateway.access.Scope;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.keys.AdminKey;
import dev.modelgateway.accounts.keys.AdminKeyRequests;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.util.Optional;

import static dev.modelgateway.endpoint.admin.AdminReplies.actor;
import static dev.modelgateway.endpoint.admin.AdminReplies.body;
import static dev.modelgateway.endpoint.admin.AdminReplies.respond;

/**
 * {@code /admin/admin-keys}: scoped admin keys for automation (docs/identity/admin-keys.md), behind
 * {@link Permission#ADMIN_KEYS_WRITE}. A creator grants only what it reaches itself over the key's scope.
 */
public final class AdminKeysEndpoint {
    private final Administration accounts;

    public AdminKeysEndpoint(Administration accounts) {
        this.accounts = accounts;
    }

    public void create(RoutingContext ctx) {
        AdminKeyRequests.Spec spec = AdminKeyRequests.create(body(ctx));
        noEscalation(AdminAccess.principal(ctx), spec);
        respond(ctx, accounts.createAdminKey(actor(ctx), spec).map(issued -> {
            ctx.response().setStatusCode(201);
            return json(issued.key()).put("key", issued.secret());
        }));
    }

    /**
     * A 403 unless the creator itself reaches every permission it grants over the key's scope: a team admin's key
     * cannot make an org-wide one, an auditor's cannot make a key writer.
     */
    static void noEscalation(Principal creator, AdminKeyRequests.Spec spec) {
        for (Permission p : spec.permissions()) {
            if (p == Permission.SELF) continue; // every principal has it, over itself
            Reach reach = creator.reach(p);
            boolean covered = spec.scope().kind() == Scope.Kind.ORG ? reach.org() : reach.team(spec.scope().teamId());
            if (!covered) {
                throw GatewayException.of(ErrorKind.PERMISSION, "This credential cannot grant '" + p.wire + "' over "
                        + spec.scope().wire() + ": it does not hold it there itself.").withParam("permissions").withCode("permission_denied");
            }
        }
    }

    public void list(RoutingContext ctx) {
        respond(ctx, accounts.listAdminKeys().map(keys -> AdminReplies.list(keys.stream().map(AdminKeysEndpoint::json).toList())));
    }

    public void get(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        respond(ctx, found(id, accounts.findAdminKey(id)).map(AdminKeysEndpoint::json));
    }

    public void update(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        var body = body(ctx);
        respond(ctx, manageable(ctx, id).compose(k -> found(id, accounts.patchAdminKey(actor(ctx), id, body))).map(AdminKeysEndpoint::json));
    }

    /** A new secret, shown this once; the current one accepted for {@code grace_seconds} more. */
    public void rotate(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        var body = body(ctx);
        respond(ctx, manageable(ctx, id).compose(k -> found(id, accounts.rotateAdminKey(actor(ctx), id, body)))
                .map(issued -> json(issued.key()).put("key", issued.secret())));
    }

    public void delete(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        respond(ctx, manageable(ctx, id).compose(k -> accounts.deleteAdminKey(actor(ctx), id)).compose(deleted -> deleted
                ? Future.succeededFuture(AdminReplies.deleted(id, "admin_key")) : Future.failedFuture(notFound(id))));
    }

    /**
     * The key, when the principal could have made it: rotating a stronger key would hand its holder that key's new
     * secret, and re-enabling one would bring its power back. An admin key's permissions and scope never change.
     */
    private Future<AdminKey> manageable(RoutingContext ctx, String id) {
        Principal who = AdminAccess.principal(ctx);
        return found(id, accounts.findAdminKey(id)).map(key -> {
            noEscalation(who, new AdminKeyRequests.Spec(key.name(), key.role(), key.permissions(), key.scope(), key.expiresAt()));
            return key;
        });
    }

    private static <T> Future<T> found(String id, Future<Optional<T>> lookup) {
        return lookup.compose(k -> k.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(notFound(id))));
    }

    private static GatewayException notFound(String id) {
        return GatewayException.of(ErrorKind.NOT_FOUND, "No admin key with id '" + id + "'.").withParam("id").withCode("admin_key_not_found");
    }

    static ObjectNode json(AdminKey key) {
        ObjectNode json = Json.MAPPER.createObjectNode().put("id", key.id()).put("object", "admin_key").put("name", key.name())
                .put("prefix", key.prefix()).put("role", key.role() == null ? null : key.role().wire);
        ArrayNode permissions = json.putArray("permissions");
        key.permissions().stream().sorted().forEach(p -> permissions.add(p.wire));
        json.put("scope", key.scope().wire())
                .put("expires_at", AdminReplies.text(key.expiresAt()))
                .put("last_used_at", AdminReplies.text(key.lastUsedAt()))
                .put("disabled", key.disabled())
                .put("created_by", key.createdBy())
                .put("created_at", key.createdAt().toString());
        if (key.previous() == null) json.putNull("previous_secret");
        else json.putObject("previous_secret").put("prefix", key.previous().prefix())
                .put("accepted_until", key.previous().acceptedUntil().toString());
        return json;
    }
}
