package dev.modelgateway.server;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

/**
 * docs/contract.md §5: the platform key travels only as {@code Authorization: Bearer}; {@code x-api-key} is refused with advice.
 * WebSocket upgrades may carry it instead as OpenAI's browser subprotocol {@code openai-insecure-api-key.<key>},
 * since browsers cannot set headers on a WebSocket.
 */
final class BearerAuth implements Handler<RoutingContext> {
    private final Authenticator authenticator;

    BearerAuth(Authenticator authenticator) {
        this.authenticator = authenticator;
    }

    private static final String KEY_SUBPROTOCOL = "openai-insecure-api-key.";

    static boolean isWebSocketUpgrade(HttpServerRequest request) {
        return "websocket".equalsIgnoreCase(request.getHeader("upgrade"));
    }

    private static String subprotocolBearer(String protocols) {
        if (protocols == null) return null;
        for (String p : protocols.split(",")) {
            String s = p.trim();
            if (s.startsWith(KEY_SUBPROTOCOL)) return "Bearer " + s.substring(KEY_SUBPROTOCOL.length());
        }
        return null;
    }

    /** Whether the request announces a body (a length above 0, or a transfer encoding). */
    static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader("content-length");
        if (length != null) return !length.trim().equals("0");
        return request.getHeader("transfer-encoding") != null
                || request.version() == HttpVersion.HTTP_2 && !request.isEnded() && request.method() != HttpMethod.GET;
    }

    /** An unread body up to this size is read and dropped after a refusal, so the client sees its answer on a kept connection. */
    static final long DISCARD_LIMIT = 1024 * 1024;

    /**
     * Answers an error without buffering the request's body (it is still paused). An authenticated caller's
     * body, or a small one, is then read and dropped, so the client sees the answer whole and keeps its
     * connection; an unauthenticated larger or unknown one is not read at all: the HTTP/1.x connection is
     * closed, an HTTP/2 stream reset.
     */
    static void refuse(RoutingContext ctx, GatewayException e) {
        refuse(ctx, e, false);
    }

    static void refuse(RoutingContext ctx, GatewayException e, boolean authenticated) {
        HttpServerRequest request = ctx.request();
        if (request.isEnded() || !hasBody(request) || isWebSocketUpgrade(request)) {
            Exchange.fail(ctx, e);
            return;
        }
        String length = request.getHeader("content-length");
        long declared;
        try {
            declared = length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException bad) {
            declared = -1;
        }
        boolean http2 = request.version() == HttpVersion.HTTP_2;
        if (authenticated || declared >= 0 && declared <= DISCARD_LIMIT) {
            Exchange.fail(ctx, e);
            request.handler(chunk -> { }).resume();
            return;
        }
        if (!http2) ctx.response().putHeader("connection", "close");
        Exchange.fail(ctx, e);
        if (http2) ctx.response().reset(0);
        else request.connection().close();
    }

    /** Whether the path is one of the routes that administer the gateway ({@link GatewayRouter#ADMINISTRATIVE}). */
    static boolean administrative(String path) {
        for (String prefix : GatewayRouter.ADMINISTRATIVE) if (path.startsWith(prefix)) return true;
        return false;
    }

    @Override
    public void handle(RoutingContext ctx) {
        if (Exchange.of(ctx).caller() != null) {
            // a console session authenticated it (SessionAuth)
            ctx.next();
            return;
        }
        String header = ctx.request().getHeader("authorization");
        if (header == null && isWebSocketUpgrade(ctx.request())) header = subprotocolBearer(ctx.request().getHeader("sec-websocket-protocol"));
        if (header == null) {
            String message = ctx.request().getHeader("x-api-key") != null
                    ? "The x-api-key header is not accepted here. Send your platform API key as 'Authorization: Bearer <key>': "
                    + "with the messages SDK, pass it as the bearer-token option (auth_token in Python, authToken in "
                    + "TypeScript and Java) instead of api_key."
                    : "Missing credentials: send your platform API key as 'Authorization: Bearer <key>'.";
            refuse(ctx, GatewayException.of(ErrorKind.AUTHENTICATION, message));
            return;
        }
        if (header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            refuse(ctx, GatewayException.of(ErrorKind.AUTHENTICATION,
                    "The Authorization header must use the Bearer scheme: 'Authorization: Bearer <key>'."));
            return;
        }
        authenticator.authenticate(header.substring(7).trim()).onComplete(ar -> {
            // the path the router dispatches on (dot segments and escapes resolved), never the raw one: an admin key must
            // not reach a model route through /api/v1/admin/../chat/completions
            if (ar.succeeded() && ar.result().key() == null && !administrative(ctx.normalizedPath())) {
                refuse(ctx, GatewayException.of(ErrorKind.PERMISSION, "This credential administers the gateway and calls no"
                        + " model: call models with a platform API key.").withCode("not_a_caller_credential"), true);
            } else if (ar.succeeded()) {
                Exchange.of(ctx).caller(ar.result());
                ctx.next();
            } else if (ar.cause() instanceof GatewayException e) {
                refuse(ctx, e);
            } else {
                ctx.fail(ar.cause());
            }
        });
    }
}
