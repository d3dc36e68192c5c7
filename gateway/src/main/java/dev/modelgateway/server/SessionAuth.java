package dev.modelgateway.server;

import dev.modelgateway.console.ConsoleSessions;
import dev.modelgateway.console.SignIn;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Caller;
import dev.modelgateway.http.Exchange;
import io.vertx.core.Handler;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;

/**
 * A person's console session as the credential of an {@code /api} request (docs/identity/sso.md), before
 * {@link BearerAuth}: taken only when the request has no {@code Authorization} header, carries the session cookie and
 * goes to the admin or console API (never a model route or SCIM). A state-changing request must pass the CSRF check
 * ({@link SignIn#csrfOk}); a bearer request never meets it.
 */
final class SessionAuth implements Handler<RoutingContext> {
    private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

    private final SignIn signIn;

    SessionAuth(SignIn signIn) {
        this.signIn = signIn;
    }

    @Override
    public void handle(RoutingContext ctx) {
        // a model call always carries its Authorization header: it leaves here before any cookie is parsed. The path is
        // the one the router dispatches on (dot segments and escapes resolved): /api/v1/admin/../chat/completions is a
        // model route, where a cookie is no credential
        if (ctx.request().getHeader("authorization") != null || !GatewayRouter.sessionRoute(ctx.normalizedPath()) || !signIn.enabled()) {
            ctx.next();
            return;
        }
        Cookie cookie = ctx.request().getCookie(ConsoleSessions.COOKIE);
        if (cookie == null) {
            ctx.next();
            return;
        }
        signIn.sessions().find(cookie.getValue()).onComplete(r -> {
            if (r.failed()) {
                BearerAuth.refuse(ctx, r.cause() instanceof GatewayException e ? e
                        : GatewayException.of(ErrorKind.UNAVAILABLE, "The accounts database is unavailable."));
            } else if (r.result().isEmpty()) {
                BearerAuth.refuse(ctx, GatewayException.of(ErrorKind.AUTHENTICATION,
                        "Your console session has ended: sign in again.").withCode("session_expired"));
            } else if (!SAFE.contains(ctx.request().method()) && !signIn.csrfOk(ctx.request(), r.result().get())) {
                BearerAuth.refuse(ctx, SignIn.csrfFailed(), true);
            } else {
                Exchange.of(ctx).caller(new Caller(null, r.result().get().principal()));
                ctx.put(ConsoleSessions.CSRF_TOKEN, r.result().get().csrfToken());
                ctx.next();
            }
        });
    }
}
