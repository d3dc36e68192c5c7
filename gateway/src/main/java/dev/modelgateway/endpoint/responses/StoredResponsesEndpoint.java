package dev.modelgateway.endpoint.responses;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.OperationCall;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.BodyWork;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import dev.modelgateway.services.ResponseBounds;
import dev.modelgateway.services.ResponseOwners;
import dev.modelgateway.services.ResponseStore;
import dev.modelgateway.wire.openai.responses.InputItemList;
import dev.modelgateway.wire.openai.responses.ResponsesInbound;
import dev.modelgateway.wire.openai.responses.StoredResponseCalls;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /api/v1/responses/{id}}, {@code DELETE /api/v1/responses/{id}} and
 * {@code GET /api/v1/responses/{id}/input_items}, as the OpenAI SDKs call them (retrieve, delete,
 * inputItems.list). A response the gateway made is answered from its store; a vendor B response is relayed to
 * vendor B only for the key that created it through this gateway ({@link ResponseOwners}: vendor B keeps them all
 * under the gateway's one account), through a deployment of vendor B chosen by the routes
 * ({@link OperationCall#unmetered}; docs/endpoints.md, "Stored responses"). Anything else is a 404, also another
 * key's response: its existence is not disclosed.
 * No tokens are spent, so these calls are neither admitted against limits nor metered.
 */
public final class StoredResponsesEndpoint {
    private final CallServices platform;
    private final ResponseStore store;
    private final ResponseOwners owners;

    public StoredResponsesEndpoint(CallServices platform, ResponseStore store, ResponseOwners owners) {
        this.platform = platform;
        this.store = store;
        this.owners = owners;
    }

    public void retrieve(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        String keyId = Exchange.of(ctx).caller().keyId();
        boolean stream = "true".equals(ctx.request().getParam("stream"));
        lookUp(id, keyId).onSuccess(stored -> {
            if (stored == null) {
                relayOrNotFound(ctx, id, keyId, HttpMethod.GET, "");
            } else if (stream) {
                Exchange.fail(ctx, GatewayException.invalid("stream", "Response '" + id + "' was made by this gateway, which does "
                        + "not replay its stream; retrieve it without 'stream'."));
            } else {
                answer(ctx, stored.response());
            }
        }).onFailure(ctx::fail);
    }

    public void delete(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        String keyId = Exchange.of(ctx).caller().keyId();
        Future<Boolean> removed = gatewayMade(id) ? store.remove(id, keyId) : Future.succeededFuture(false);
        removed.onSuccess(done -> {
            if (done) answer(ctx, Json.MAPPER.createObjectNode().put("id", id).put("object", "response").put("deleted", true));
            else relayOrNotFound(ctx, id, keyId, HttpMethod.DELETE, "");
        }).onFailure(ctx::fail);
    }

    public void inputItems(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        String keyId = Exchange.of(ctx).caller().keyId();
        HttpServerRequest req = ctx.request();
        String order = req.getParam("order");
        String after = req.getParam("after");
        String limit = req.getParam("limit");
        lookUp(id, keyId).onSuccess(stored -> {
            if (stored == null) {
                relayOrNotFound(ctx, id, keyId, HttpMethod.GET, "/input_items");
                return;
            }
            // the stored input may be megabytes: parsed beside the event loop then
            BodyWork.run(ctx.vertx(), stored.inputJson().length, () -> InputItemList.page(id, stored.input(), order, after, limit))
                    .onSuccess(page -> answer(ctx, page)).onFailure(ctx::fail);
        }).onFailure(ctx::fail);
    }

    /** Only gateway-made ids are looked for in the store (it may be PostgreSQL); null when not this key's. */
    private Future<ResponseStore.Stored> lookUp(String id, String keyId) {
        return gatewayMade(id) ? store.find(id, keyId) : Future.succeededFuture();
    }

    private static boolean gatewayMade(String id) {
        return id.startsWith(ResponsesInbound.GATEWAY_ID_PREFIX);
    }

    private static void answer(RoutingContext ctx, ObjectNode body) {
        ctx.response().putHeader("content-type", "application/json").end(Json.toBuffer(body));
    }

    private void relayOrNotFound(RoutingContext ctx, String id, String keyId, HttpMethod method, String suffix) {
        Future<Boolean> owned = gatewayMade(id) ? Future.succeededFuture(false) : owners.owns(id, keyId);
        owned.onComplete(ar -> {
            if (ar.failed()) {
                ctx.fail(ar.cause());
            } else if (!ar.result()) {
                // vendor B's answer to an unknown id, with the gateway's reasons
                Exchange.fail(ctx, GatewayException.of(ErrorKind.NOT_FOUND, "Response with id '" + id + "' not found. This gateway "
                        + "keeps the responses it produced " + ResponseBounds.IDLE_EXPIRY.toHours() + " hours after last use, "
                        + "visible only to the API key that created them.").withParam("response_id"));
            } else {
                relay(ctx, id, method, suffix);
            }
        });
    }

    private void relay(RoutingContext ctx, String id, HttpMethod method, String suffix) {
        OperationCall.unmetered(platform, Exchange.of(ctx), Vendor.OPENAI,
                        StoredResponseCalls.of(method.name(), id, suffix, ctx.request().query()), OperationTimeouts::storedResponses)
                .onSuccess(relayed -> {
                    if (method == HttpMethod.DELETE) owners.disown(id);
                });
    }
}
