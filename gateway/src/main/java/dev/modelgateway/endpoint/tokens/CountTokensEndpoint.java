package dev.modelgateway.endpoint.tokens;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.OperationCall;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.config.Settings;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.endpoint.MessageShape;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.wire.Operations;
import dev.modelgateway.wire.anthropic.AccountObjects;
import dev.modelgateway.wire.anthropic.AnthropicTokenCount;
import dev.modelgateway.wire.anthropic.BetaFeatures;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Set;

/**
 * Token counting for a messages-protocol body, answered as {@code {"input_tokens":N}}: on
 * {@code POST /api/count-message-tokens} (docs/contract.md §4) and on the messages SDK's own
 * {@code POST /api/v1/messages/count_tokens}. Counted exactly where the chosen deployment's API counts
 * ({@link Operations#countTokens}: vendor A's, Bedrock's CountTokens, Vertex's count-tokens), else locally. Counting
 * consumes no tokens: its ledger row records the call with zero usage.
 */
public final class CountTokensEndpoint {
    static final Set<String> ROLES = Set.of("user", "assistant", "system");

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
        // counted where the chosen deployment's API counts (its vendor's, Bedrock's or Vertex's), else here
        OperationCall.run(platform, Exchange.of(ctx), ctx.body().length(), model,
                d -> Operations.countTokens(d.endpoint(), d.upstreamModel(), model.vendor(), counted, beta), OperationTimeouts::countTokens);
    }
}
