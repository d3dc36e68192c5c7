package dev.modelgateway.endpoint.admin;

import dev.modelgateway.access.Actor;
import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Principal;
import dev.modelgateway.access.Reach;
import dev.modelgateway.accounts.KeyReach;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

/**
 * The one rule of every admin, console and SCIM route (docs/identity/roles.md): the authentication before it has
 * answered 401 for no credential or an unknown one; a principal without the route's declared {@link Permission} gets a
 * 403 naming it. What a permission reaches (a team, one's own keys) the handler checks with {@link #reach}. Decided on
 * the dispatched route and the credential alone, never on {@code Host} or {@code X-Forwarded-*}.
 */
public final class AdminAccess {
    private static final String ACTOR = "admin.actor";
    private static final String PERMISSION = "admin.permission";

    private AdminAccess() {
    }

    /** The handler that lets a principal holding {@code permission} on to the route. */
    public static Handler<RoutingContext> require(Permission permission) {
        return ctx -> {
            Principal who = Exchange.of(ctx).caller().principal();
            if (!who.can(permission)) {
                Exchange.fail(ctx, GatewayException.of(ErrorKind.PERMISSION, "This route needs the permission '" + permission.wire
                        + "', which " + describe(who) + " does not have.").withCode("permission_denied"));
                return;
            }
            ctx.put(PERMISSION, permission);
            ctx.put(ACTOR, who.actor(permission, ctx.request().remoteAddress() == null ? null : ctx.request().remoteAddress().hostAddress()));
            ctx.next();
        };
    }

    /** Who made the change this request asks for, for the audit log. */
    public static Actor actor(RoutingContext ctx) {
        return ctx.get(ACTOR);
    }

    /** How far the route's permission reaches for this request's principal. */
    public static Reach reach(RoutingContext ctx) {
        Permission p = ctx.get(PERMISSION);
        return Exchange.of(ctx).caller().principal().reach(p);
    }

    /** The route's reach over keys: its teams', and its own keys, which it may put in the teams its grants name. */
    static KeyReach keyReach(RoutingContext ctx) {
        return new KeyReach(reach(ctx), Exchange.of(ctx).caller().principal().teams());
    }

    /** The request's principal. */
    static Principal principal(RoutingContext ctx) {
        return Exchange.of(ctx).caller().principal();
    }

    /** A 403 for an object outside the principal's reach (another team's key, a team's own limits). */
    public static GatewayException outsideReach(String what) {
        return GatewayException.of(ErrorKind.PERMISSION, what).withCode("outside_scope");
    }

    private static String describe(Principal who) {
        return switch (who.kind()) {
            case MASTER -> "the master key";
            case ADMIN_KEY -> "admin key " + who.id();
            case USER -> "user " + who.name();
            case API_KEY -> "a platform API key (admin routes need an admin key, a console session or the master key)";
        };
    }
}
