package dev.modelgateway.endpoint;

import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Consumer;

/**
 * Hands what {@link JsonBody} or {@link FormBody} read from a body to its handler, on the event loop: a failure of
 * the read, or a refusal the handler throws, goes to the router's failure handler (the caller's error shape).
 */
final class BodyReady {
    private BodyReady() {
    }

    static <T> void then(RoutingContext ctx, Future<T> work, Consumer<T> handler) {
        work.onComplete(done -> {
            if (done.failed()) {
                ctx.fail(done.cause());
                return;
            }
            try {
                handler.accept(done.result());
            } catch (RuntimeException e) {
                ctx.fail(e);
            }
        });
    }
}
