package dev.modelgateway.endpoint.scim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.ErrorShape;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** What the SCIM handlers share: bodies, paging, the answer in {@code application/scim+json} or its error. */
final class ScimReplies {
    private static final Logger LOG = LoggerFactory.getLogger(ScimReplies.class);
    static final String LIST_RESPONSE = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
    /** The page size when a client sends no {@code count}, and the most one page holds (ServiceProviderConfig's maxResults). */
    static final int MAX_RESULTS = 200;

    private ScimReplies() {
    }

    static void respond(RoutingContext ctx, int status, Future<? extends JsonNode> answer) {
        answer.onComplete(ar -> {
            if (ar.succeeded()) {
                ctx.response().setStatusCode(status).putHeader("content-type", ErrorShape.SCIM_MEDIA_TYPE).end(Json.toBuffer(ar.result()));
            } else if (ar.cause() instanceof GatewayException e) {
                Exchange.fail(ctx, e);
            } else {
                LOG.error("SCIM API failure, trace id {}", Exchange.of(ctx).traceId(), ar.cause());
                Exchange.fail(ctx, GatewayException.of(ErrorKind.INTERNAL, "Internal error in the SCIM API."));
            }
        });
    }

    /** An answer that names a resource, or a 404 when there is none. */
    static <T> Future<JsonNode> found(Future<Optional<T>> resource, String what, String id, Function<T, JsonNode> render) {
        return resource.map(r -> render.apply(r.orElseThrow(() -> notFound(what, id))));
    }

    static void noContent(RoutingContext ctx, Future<Boolean> deleted, String what, String id) {
        deleted.onComplete(ar -> {
            if (ar.succeeded() && ar.result()) ctx.response().setStatusCode(204).end();
            else if (ar.succeeded()) Exchange.fail(ctx, notFound(what, id));
            else respond(ctx, 204, Future.failedFuture(ar.cause()));
        });
    }

    static GatewayException notFound(String what, String id) {
        return GatewayException.of(ErrorKind.NOT_FOUND, what + " '" + id + "' not found.");
    }

    /** A 400 with RFC 7644 §3.12's {@code scimType}. */
    static GatewayException bad(String scimType, String detail) {
        return GatewayException.of(ErrorKind.INVALID_REQUEST, detail).withCode(scimType);
    }

    /** The body, a JSON object ({@code application/scim+json} or {@code application/json}); 400 invalidSyntax otherwise. */
    static ObjectNode body(RoutingContext ctx) {
        try {
            return Json.parseObject(ctx.body().buffer());
        } catch (GatewayException e) {
            throw bad("invalidSyntax", e.getMessage());
        }
    }

    /** RFC 7644 §3.4.2.4: {@code startIndex} 1-based (less than 1 is 1), {@code count} at most {@link #MAX_RESULTS} (negative is 0). */
    record Paging(int startIndex, int count) {
        static Paging of(RoutingContext ctx) {
            return new Paging(Math.max(1, number(ctx, "startIndex", 1)), Math.min(MAX_RESULTS, Math.max(0, number(ctx, "count", MAX_RESULTS))));
        }

        int offset() {
            return startIndex - 1;
        }

        private static int number(RoutingContext ctx, String name, int dflt) {
            String v = ctx.request().getParam(name);
            if (v == null || v.isBlank()) return dflt;
            try {
                return Integer.parseInt(v.trim());
            } catch (NumberFormatException e) {
                throw bad("invalidValue", "The query parameter '" + name + "' must be an integer.");
            }
        }
    }

    /** RFC 7644 §3.4.2's ListResponse. */
    static <T> ObjectNode list(Administration.Page<T> page, Paging paging, Function<T, JsonNode> render) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.putArray("schemas").add(LIST_RESPONSE);
        o.put("totalResults", page.total()).put("startIndex", paging.startIndex()).put("itemsPerPage", page.items().size());
        ArrayNode resources = o.putArray("Resources");
        page.items().forEach(i -> resources.add(render.apply(i)));
        return o;
    }

    static ObjectNode list(List<JsonNode> all) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.putArray("schemas").add(LIST_RESPONSE);
        o.put("totalResults", all.size()).put("startIndex", 1).put("itemsPerPage", all.size());
        o.putArray("Resources").addAll(all);
        return o;
    }

    /** Where the SCIM API is, for {@code meta.location}. */
    static String base(RoutingContext ctx) {
        URI uri = URI.create(ctx.request().absoluteURI());
        return uri.getScheme() + "://" + uri.getRawAuthority() + "/api/v1/scim/v2";
    }
}
