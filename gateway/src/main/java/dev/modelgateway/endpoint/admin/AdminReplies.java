package dev.modelgateway.endpoint.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.access.Actor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/** What the admin handlers share: the request's body, parameters and actor, and the answer or its error. */
final class AdminReplies {
    private static final Logger LOG = LoggerFactory.getLogger(AdminReplies.class);

    private AdminReplies() {
    }

    /** Sends the answer with the response's status (200 unless set), or its failure through the error renderer. */
    static void respond(RoutingContext ctx, Future<? extends JsonNode> answer) {
        answer.onComplete(ar -> {
            if (ar.succeeded()) {
                ctx.response().putHeader("content-type", "application/json").end(Json.toBuffer(ar.result()));
            } else if (ar.cause() instanceof GatewayException e) {
                Exchange.fail(ctx, e);
            } else {
                LOG.error("accounts API failure, trace id {}", Exchange.of(ctx).traceId(), ar.cause());
                Exchange.fail(ctx, GatewayException.of(ErrorKind.INTERNAL, "Internal error in the accounts API."));
            }
        });
    }

    /** The body, which must be a JSON object (a 400 otherwise). */
    static ObjectNode body(RoutingContext ctx) {
        return Json.parseObject(ctx.body().buffer());
    }

    /** A query parameter; null when absent or blank. */
    static String param(RoutingContext ctx, String name) {
        String v = ctx.request().getParam(name);
        return v == null || v.isBlank() ? null : v;
    }

    /** A query parameter as a JSON text, for the accounts' validation; null when absent or blank. */
    static JsonNode textParam(RoutingContext ctx, String name) {
        String v = param(ctx, name);
        return v == null ? null : Json.MAPPER.getNodeFactory().textNode(v);
    }

    /** Who made an admin change, for the audit log: the principal {@link AdminAccess} authorized. */
    static Actor actor(RoutingContext ctx) {
        return AdminAccess.actor(ctx);
    }

    static ObjectNode list(List<? extends JsonNode> items) {
        ObjectNode list = Json.MAPPER.createObjectNode().put("object", "list");
        list.putArray("data").addAll(items);
        return list;
    }

    static ArrayNode strings(List<String> values) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        values.forEach(a::add);
        return a;
    }

    static ObjectNode deleted(String id, String object) {
        return Json.MAPPER.createObjectNode().put("id", id).put("object", object).put("deleted", true);
    }

    static String text(Object v) {
        return v == null ? null : v.toString();
    }
}
