package dev.modelgateway.http;

import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.util.Locale;

/**
 * Keeps multipart/form-data bodies whole. Vert.x's BodyHandler decodes multipart itself and, with file
 * uploads off, drops the files; the gateway needs the raw bytes to forward or store them, so multipart
 * requests are read here instead ({@link BodyChunks}, same size limit), and handlers parse them with {@code MultipartForm}.
 */
public final class MultipartBody {
    private static final String KEY = "multipart-body";

    private MultipartBody() {
    }

    public static boolean applies(RoutingContext ctx) {
        String type = ctx.request().getHeader("content-type");
        return type != null && type.toLowerCase(Locale.ROOT).startsWith("multipart/");
    }

    public static void collect(RoutingContext ctx, long limit, Runnable tooLarge) {
        BodyChunks.collect(ctx, limit, tooLarge, body -> {
            ctx.put(KEY, body);
            ctx.next();
        });
    }

    /** The raw multipart body, or null when the request was not multipart. */
    public static Buffer of(RoutingContext ctx) {
        return ctx.get(KEY);
    }
}
