package dev.modelgateway.endpoint.tokens;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.OperationCall;
import dev.modelgateway.canonical.CanonicalTokenCount;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.config.Settings;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.endpoint.MessageShape;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.BodyWork;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.Operations;
import dev.modelgateway.wire.VendorOperation;
import dev.modelgateway.wire.anthropic.AccountObjects;
import dev.modelgateway.wire.anthropic.AnthropicTokenCount;
import dev.modelgateway.wire.anthropic.BetaFeatures;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Token counting for a messages-protocol body, answered as {@code {"input_tokens":N}}: on
 * {@code POST /api/count-message-tokens} (docs/contract.md §4) and on the messages SDK's own
 * {@code POST /api/v1/messages/count_tokens}. A model whose vendor counts exactly is counted by the vendor
 * ({@link Operations#countTokens}: vendor A); other models locally ({@link CanonicalTokenCount}). Counting consumes no
 * tokens: its ledger row records the call with zero usage.
 */
public final class CountTokensEndpoint {
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
        AccountObjects.refuseFileIds(body);
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
            if (AnthropicTokenCount.COUNTED_FIELDS.contains(e.getKey())) counted.set(e.getKey(), e.getValue());
        });
        List<String> betas = platform.config().settings().list(Settings.VENDOR_A_ALLOWED_BETAS);
        String beta = BetaFeatures.allowed(ctx.request().getHeader(BetaFeatures.HEADER), betas);
        BetaFeatures.checkBody(counted, betas);
        Optional<VendorOperation> exact = Operations.countTokens(model, counted, beta);
        if (exact.isPresent()) {
            OperationCall.run(platform, Exchange.of(ctx), ctx.body().length(), model, exact.get(), OperationTimeouts::countTokens);
            return;
        }
        // Decoding validates the body and names the offending field like the messages endpoint does; decoding
        // and tokenizing walk the whole body: beside the event loop when it is large.
        BodyWork.run(ctx.vertx(), ctx.body().length(), () -> {
            ObjectNode decodable = counted.deepCopy().put("max_tokens", 1);
            return CanonicalTokenCount.count(MESSAGES.decodeRequest(decodable));
        }).onSuccess(tokens -> OperationCall.answerLocally(platform, Exchange.of(ctx), ctx.body().length(), model,
                Json.toBuffer(JsonNodeFactory.instance.objectNode().put("input_tokens", tokens)))).onFailure(ctx::fail);
    }
}
