package dev.modelgateway.endpoint;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.http.BodyWork;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A request's JSON body for its handler. A large one is parsed, and checked by {@code check}, on a worker
 * thread ({@link BodyWork}): parsing or walking megabytes on the event loop would stall every other request
 * that loop serves (a 30 MB body held one for seconds; docs/security.md). The handler itself runs on the event
 * loop; its refusals, and the parser's and the check's, reach the router's failure handler either way.
 */
public final class JsonBody {
    private JsonBody() {
    }

    public static void parse(RoutingContext ctx, Consumer<ObjectNode> handler) {
        parse(ctx, body -> { }, handler);
    }

    /** @param check the validation that walks the whole body (a 400 naming the field), run where it was parsed */
    public static void parse(RoutingContext ctx, Consumer<ObjectNode> check, Consumer<ObjectNode> handler) {
        read(ctx, body -> {
            check.accept(body);
            return body;
        }, handler);
    }

    /** @param reader what the handler needs from the body, read (and validated) where it was parsed */
    public static <T> void read(RoutingContext ctx, Function<ObjectNode, T> reader, Consumer<T> handler) {
        Buffer body = ctx.body().buffer();
        BodyReady.then(ctx, BodyWork.run(ctx.vertx(), body == null ? 0 : body.length(), () -> reader.apply(Json.parseObject(body))), handler);
    }
}
