package dev.modelgateway.console;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.StaticHandler;

/**
 * The console's static pages, from {@code console/} in the jar. The content security policy allows nothing but
 * the gateway itself: no CDN, no inline script, and the key never leaves the page's memory for another origin.
 */
final class ConsolePages {
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
            + " connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    private ConsolePages() {
    }

    static void mount(Router router) {
        // Vert.x matches "/console" for "/console/" too: redirect only the bare path, so relative asset links resolve
        router.get("/console").handler(ctx -> {
            if (ctx.request().path().equals("/console")) ctx.redirect("/console/");
            else ctx.next();
        });
        router.route("/console/*").handler(ctx -> {
            ctx.response().putHeader("content-security-policy", CSP)
                    .putHeader("x-content-type-options", "nosniff")
                    .putHeader("referrer-policy", "no-referrer")
                    .putHeader("cache-control", "no-store");
            ctx.next();
        });
        router.route("/console/*").handler(StaticHandler.create("console").setCachingEnabled(false)
                .setDirectoryListing(false).setIndexPage("index.html"));
    }
}
