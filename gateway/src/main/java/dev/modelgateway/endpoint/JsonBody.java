package dev.modelgateway.endpoint;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Consumer;

/**
 * A request's JSON body for its handler. A large one is parsed on a worker thread: parsing megabytes on the
 * event loop would stall every other request that loop serves (a 30 MB body held one for seconds;
 * docs/security.md). The handler itself still runs on the event loop; its refusals reach the router's
 * failure handler either way.
 */
public final class JsonBody {
    /** Bodies up to this size are parsed in place: a worker hop costs more than parsing them. */
    static final int INLINE_BYTES = 256 * 1024;

    private JsonBody() {
    }

    public static void parse(RoutingContext ctx, Consumer<ObjectNode> handler) {
        Buffer body = ctx.body().buffer();
        if (body == null || body.length() <= INLINE_BYTES) {
            handler.accept(Json.parseObject(body));
            return;
        }
        ctx.vertx().executeBlocking(() -> Json.parseObject(body), false).onComplete(parsed -> {
            if (parsed.failed()) {
                ctx.fail(parsed.cause());
                return;
            }
            try {
                handler.accept(parsed.result());
            } catch (RuntimeException e) {
                ctx.fail(e);
            }
        });
    }
}
