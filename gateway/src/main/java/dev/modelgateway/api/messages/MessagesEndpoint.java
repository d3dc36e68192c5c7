package dev.modelgateway.api.messages;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.api.Deadlines;
import dev.modelgateway.api.MessageShape;
import dev.modelgateway.api.Platform;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.relay.AnthropicNativeTap;
import dev.modelgateway.relay.ErrorRelay;
import dev.modelgateway.relay.RelayOutcome;
import dev.modelgateway.routing.PlatformOptions;
import dev.modelgateway.server.Exchange;
import dev.modelgateway.upstream.UpstreamRequest;
import dev.modelgateway.vendor.anthropic.AnthropicUsage;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;

/** {@code POST /api/v1/messages} (SPEC 2.3), the messages protocol. */
public final class MessagesEndpoint {
    static final Set<String> ROLES = Set.of("user", "assistant", "system");

    private final Platform platform;

    public MessagesEndpoint(Platform platform) {
        this.platform = platform;
    }

    public void handle(RoutingContext ctx) {
        Exchange ex = Exchange.of(ctx);
        ObjectNode body = Json.parseObject(ctx.body().buffer());
        String model = Fields.requiredString(body, "model");
        Fields.requiredPositiveInt(body, "max_tokens");
        MessageShape.check(Fields.requiredArray(body, "messages"), ROLES, true);
        boolean stream = Fields.optionalBoolean(body, "stream", false);
        PlatformOptions options = PlatformOptions.extract(body, platform.catalogue());
        ModelEntry entry = platform.catalogue().resolve(model);
        ex.model(entry.id());
        if (entry.kind() != ModelKind.CHAT) {
            throw GatewayException.invalid("model", "Model '" + entry.id() + "' is an " + entry.kind().name().toLowerCase()
                    + " model and cannot be used with the messages API.");
        }
        Future<RelayOutcome> outcome = switch (entry.vendor()) {
            case ANTHROPIC -> forwardNative(ctx, body, entry, stream, options);
            case OPENAI, GEMINI, DASHSCOPE -> Future.failedFuture(new GatewayException(501, ErrorKind.NOT_IMPLEMENTED,
                    "The messages API to " + entry.vendor().id() + " models is not available yet.", "model", null, null));
        };
        outcome.onFailure(t -> ErrorRelay.renderNative(ctx, t, entry.vendor().id()));
    }

    private Future<RelayOutcome> forwardNative(RoutingContext ctx, ObjectNode body, ModelEntry entry, boolean stream,
                                               PlatformOptions options) {
        ThinkingRules.apply(body, entry);
        body.put("model", entry.upstreamId());
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json");
        String beta = ctx.request().getHeader("anthropic-beta");
        if (beta != null) headers.set("anthropic-beta", beta);
        UpstreamRequest req = new UpstreamRequest(platform.config().vendor(entry.vendor()), "/v1/messages", headers,
                Json.toBuffer(body), Deadlines.idleTimeoutMs(options));
        return stream
                ? platform.relay().stream(ctx, req, new AnthropicNativeTap(Exchange.of(ctx).traceId()))
                : platform.relay().json(ctx, req, json -> AnthropicUsage.toCanonical(json.get("usage")));
    }
}
