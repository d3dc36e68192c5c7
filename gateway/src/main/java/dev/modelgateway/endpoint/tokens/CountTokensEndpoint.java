package dev.modelgateway.endpoint.tokens;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.SingleAttempt;
import dev.modelgateway.canonical.CanonicalTokenCount;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.endpoint.MessageShape;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.BodyWork;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;

/**
 * Token counting for a messages-protocol body, answered as {@code {"input_tokens":N}}: on
 * {@code POST /api/count-message-tokens} (docs/contract.md §4) and on the messages SDK's own
 * {@code POST /api/v1/messages/count_tokens}. Vendor A models are counted exactly by vendor A's count
 * endpoint; other models locally ({@link CanonicalTokenCount}). Counting consumes no tokens: its ledger row
 * records the call with zero usage.
 */
public final class CountTokensEndpoint {
    /** The fields vendor A's count endpoint accepts; the others of a messages body are dropped. */
    static final Set<String> COUNTED_FIELDS = Set.of("model", "messages", "system", "tools", "tool_choice", "thinking",
            "mcp_servers", "output_config");
    static final long TIMEOUT_MS = 30_000;
    static final Set<String> ROLES = Set.of("user", "assistant", "system");
    private static final MessagesInbound MESSAGES = new MessagesInbound();

    private final CallServices platform;

    public CountTokensEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void handle(RoutingContext ctx) {
        JsonBody.parse(ctx, CountTokensEndpoint::check, body -> handle(ctx, body));
    }

    /** The checks that walk the whole body. */
    private static void check(ObjectNode body) {
        Fields.requiredString(body, "model");
        MessageShape.check(Fields.requiredArray(body, "messages"), ROLES, true);
    }

    private void handle(RoutingContext ctx, ObjectNode body) {
        String requested = Fields.requiredString(body, "model");
        ModelEntry model = platform.catalogue().resolve(requested);
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.CHAT) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' is not a chat model; tokens are counted for chat models.");
        }
        ObjectNode counted = JsonNodeFactory.instance.objectNode();
        body.properties().forEach(e -> {
            if (COUNTED_FIELDS.contains(e.getKey())) counted.set(e.getKey(), e.getValue());
        });
        if (model.vendor() == Vendor.ANTHROPIC) {
            SingleAttempt.run(platform, Exchange.of(ctx), ctx.body().length(), model, 0, () -> exact(ctx, model, counted));
            return;
        }
        // Decoding validates the body and names the offending field like the messages endpoint does; decoding
        // and tokenizing walk the whole body: beside the event loop when it is large.
        BodyWork.run(ctx.vertx(), ctx.body().length(), () -> {
            ObjectNode decodable = counted.deepCopy().put("max_tokens", 1);
            return CanonicalTokenCount.count(MESSAGES.decodeRequest(decodable));
        }).onSuccess(tokens -> SingleAttempt.run(platform, Exchange.of(ctx), ctx.body().length(), model, 0, () -> {
            ctx.response().putHeader("content-type", "application/json")
                    .end(Json.toBuffer(JsonNodeFactory.instance.objectNode().put("input_tokens", tokens)));
            return Future.succeededFuture(new RelayOutcome.Answered(200, Usage.ZERO, null));
        })).onFailure(ctx::fail);
    }

    private Future<RelayOutcome> exact(RoutingContext ctx, ModelEntry model, ObjectNode counted) {
        counted.put("model", model.upstreamId());
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json");
        String beta = ctx.request().getHeader("anthropic-beta");
        if (beta != null) headers.set("anthropic-beta", beta);
        JsonAnswer answer = vendorBody -> new JsonAnswer.Answer(vendorBody, Usage.ZERO);
        // serializing the messages: beside the event loop when they are large
        return SingleAttempt.bodyWork(Exchange.of(ctx), ctx.body().length(), () -> Json.toBuffer(counted)).compose(bytes ->
                platform.relay().json(Exchange.of(ctx), new VendorRequest(platform.config().vendor(Vendor.ANTHROPIC),
                        "/v1/messages/count_tokens", headers, bytes, Deadline.ofMillis(TIMEOUT_MS)), answer, VendorErrorMapper.NATIVE));
    }
}
