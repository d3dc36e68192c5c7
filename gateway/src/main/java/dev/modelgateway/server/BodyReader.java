package dev.modelgateway.server;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.BodyChunks;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.http.MultipartBody;
import dev.modelgateway.config.ServerLimits;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.impl.RoutingContextInternal;

import java.util.Map;

/**
 * Reads an authenticated request's body, within its route's limit, the gateway-wide {@link BodyBudget} and
 * the body-read timeout. Limits per route: the admin and SCIM APIs take small JSON documents (64 KiB); every other
 * route, the model routes (chat, messages, token counting, responses, embeddings, images, audio) included,
 * takes up to vendor A's documented request limit (32 MiB).
 */
final class BodyReader {
    static final long MODEL_BODY_LIMIT = 32L * 1024 * 1024;
    static final long ADMIN_BODY_LIMIT = 64L * 1024;
    private static final String ADMIN_PREFIX = "/api/v1/admin/";
    private static final String TIMER_KEY = "body-timer";

    private final Vertx vertx;
    private final ServerLimits limits;
    private final BodyBudget budget;

    BodyReader(Vertx vertx, ServerLimits limits, BodyBudget budget) {
        this.vertx = vertx;
        this.limits = limits;
        this.budget = budget;
    }

    static long limitFor(String path) {
        return path.startsWith(ADMIN_PREFIX) || path.equals("/api/v1/admin") || path.startsWith("/api/v1/scim/") ? ADMIN_BODY_LIMIT : MODEL_BODY_LIMIT;
    }

    void read(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        if (BearerAuth.isWebSocketUpgrade(request)) {
            ctx.next();
            return;
        }
        long limit = limitFor(request.path());
        long declared = declaredLength(request);
        if (declared > limit) {
            BearerAuth.refuse(ctx, tooLarge(limit), true);
            return;
        }
        long reserve = declared >= 0 ? declared : BearerAuth.hasBody(request) ? limit : 0;
        if (reserve > 0) {
            if (!budget.tryReserve(reserve)) {
                BearerAuth.refuse(ctx, GatewayException.of(ErrorKind.UNAVAILABLE,
                                "The gateway is holding as many request bodies as its memory allows; retry in a moment.")
                        .withCode("server_busy").withHeaders(Map.of("retry-after", "1", "x-should-retry", "true")), true);
                return;
            }
            ctx.addEndHandler(v -> budget.release(reserve));
            if (limits.bodyReadTimeoutSeconds() > 0) {
                long timer = vertx.setTimer(limits.bodyReadTimeoutSeconds() * 1000, id -> {
                    if (ctx.response().ended() || ctx.response().headWritten()) return;
                    ctx.response().putHeader("connection", "close");
                    Exchange.fail(ctx, GatewayException.of(ErrorKind.INVALID_REQUEST, "The request body did not arrive whole within "
                            + limits.bodyReadTimeoutSeconds() + " seconds.").withStatus(408).withCode("request_timeout"));
                    request.connection().close();
                });
                ctx.put(TIMER_KEY, timer);
                ctx.addEndHandler(v -> vertx.cancelTimer(timer));
            }
        }
        Runnable refuse = () -> Exchange.fail(ctx, tooLarge(limit));
        if (MultipartBody.applies(ctx)) MultipartBody.collect(ctx, limit, refuse);
        else BodyChunks.collect(ctx, limit, refuse, body -> {
            RoutingContextInternal internal = (RoutingContextInternal) ctx;
            internal.visitHandler(RoutingContextInternal.BODY_HANDLER);
            internal.setBody(body);
            ctx.next();
        });
    }

    /** The body has been read whole: its timer stops. */
    void done(RoutingContext ctx) {
        Long timer = ctx.get(TIMER_KEY);
        if (timer != null) vertx.cancelTimer(timer);
        ctx.next();
    }

    static GatewayException tooLarge(long limit) {
        return GatewayException.of(ErrorKind.REQUEST_TOO_LARGE, "The request body exceeds the limit of " + size(limit) + " for this endpoint.");
    }

    static String size(long bytes) {
        if (bytes % (1024 * 1024) == 0) return bytes / (1024 * 1024) + " MB";
        if (bytes % 1024 == 0) return bytes / 1024 + " KB";
        return bytes + " bytes";
    }

    private static long declaredLength(HttpServerRequest request) {
        String length = request.getHeader("content-length");
        if (length == null) return -1;
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
