package dev.modelgateway.http;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.util.Locale;

/**
 * Keeps multipart/form-data bodies whole. Vert.x's BodyHandler decodes multipart itself and, with file
 * uploads off, drops the files; the gateway needs the raw bytes to forward or store them, so multipart
 * requests are read here instead (same size limit), and handlers parse them with {@code MultipartForm}.
 */
public final class MultipartBody {
    private static final String KEY = "multipart-body";

    private MultipartBody() {
    }

    public static boolean applies(RoutingContext ctx) {
        String type = ctx.request().getHeader("content-type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("multipart/");
    }

    public static void collect(RoutingContext ctx, long limit) {
        Buffer body = Buffer.buffer();
        ctx.request().handler(chunk -> {
            if (body.length() + chunk.length() > limit) {
                ctx.request().handler(null);
                Exchange.fail(ctx, GatewayException.of(ErrorKind.REQUEST_TOO_LARGE,
                        "The request body exceeds the limit of " + limit / (1024 * 1024) + " MB."));
                return;
            }
            body.appendBuffer(chunk);
        });
        // a malformed framing or the caller leaving: the router's failure handler answers (or not) and logs
        ctx.request().exceptionHandler(t -> {
            if (!ctx.failed() && !ctx.response().ended()) ctx.fail(t);
        });
        ctx.request().endHandler(v -> {
            if (ctx.response().ended()) return;
            ctx.put(KEY, body);
            ctx.next();
        });
        ctx.request().resume();
    }

    /** The raw multipart body, or null when the request was not multipart. */
    public static Buffer of(RoutingContext ctx) {
        return ctx.get(KEY);
    }
}
