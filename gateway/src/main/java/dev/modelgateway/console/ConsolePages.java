package dev.modelgateway.console;

import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The console's static pages, from {@code console/} in the jar. The content security policy allows nothing but
 * the gateway itself: no CDN, no inline script, and the key never leaves the page's memory for another origin.
 * {@code server/GatewayRouter} routes {@code /console} to {@link #redirect}, then {@code /console/*} to
 * {@link #headers} and {@link #files}.
 */
public final class ConsolePages {
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    private ConsolePages() {
    }

    /** Vert.x matches "/console" for "/console/" too: only the bare path is redirected, so relative asset links resolve. */
    public static void redirect(RoutingContext ctx) {
        if (ctx.request().path().equals("/console")) ctx.redirect("/console/");
        else ctx.next();
    }

    public static void headers(RoutingContext ctx) {
        ctx.response().putHeader("content-security-policy", CSP)
                .putHeader("x-content-type-options", "nosniff")
                .putHeader("referrer-policy", "no-referrer")
                .putHeader("cache-control", "no-store");
        ctx.next();
    }

    /** The pages themselves, from the jar. */
    public static StaticHandler files() {
        return StaticHandler.create("console").setCachingEnabled(false).setDirectoryListing(false).setIndexPage("index.html");
    }
}
