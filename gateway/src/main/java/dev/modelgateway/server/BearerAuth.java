package dev.modelgateway.server;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
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

    @Override
    public void handle(RoutingContext ctx) {
        String header = ctx.request().getHeader("authorization");
        if (header == null && isWebSocketUpgrade(ctx.request())) header = subprotocolBearer(ctx.request().getHeader("sec-websocket-protocol"));
        if (header == null) {
            String message = ctx.request().getHeader("x-api-key") != null
                    ? "The x-api-key header is not accepted here. Send your platform API key as 'Authorization: Bearer <key>': "
                    + "with the messages SDK, pass it as the bearer-token option (auth_token in Python, authToken in "
                    + "TypeScript and Java) instead of api_key."
                    : "Missing credentials: send your platform API key as 'Authorization: Bearer <key>'.";
            Exchange.fail(ctx, GatewayException.of(ErrorKind.AUTHENTICATION, message));
            return;
        }
        if (header.length() < 8 || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            Exchange.fail(ctx, GatewayException.of(ErrorKind.AUTHENTICATION,
                    "The Authorization header must use the Bearer scheme: 'Authorization: Bearer <key>'."));
            return;
        }
        authenticator.authenticate(header.substring(7).trim()).onComplete(ar -> {
            if (ar.succeeded()) {
                Exchange.of(ctx).caller(ar.result());
                ctx.next();
            } else if (ar.cause() instanceof GatewayException e) {
                Exchange.fail(ctx, e);
            } else {
                ctx.fail(ar.cause());
            }
        });
    }
}
