package dev.modelgateway.api.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.api.Deadlines;
import dev.modelgateway.api.MessageShape;
import dev.modelgateway.api.Platform;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.relay.ErrorRelay;
import dev.modelgateway.relay.OpenAiNativeTap;
import dev.modelgateway.relay.RelayOutcome;
import dev.modelgateway.routing.PlatformOptions;
import dev.modelgateway.server.Exchange;
import dev.modelgateway.upstream.UpstreamRequest;
import dev.modelgateway.vendor.openai.OpenAiUsage;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Set;

/** {@code POST /api/v1/chat/completions} (SPEC 2.4). */
public final class ChatCompletionsEndpoint {
    static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool", "function");
    /** Series 6 models take these only on the Responses API (SPEC 2.5). */
    static final List<String> RESPONSES_ONLY_PARAMS = List.of("temperature", "top_p", "logprobs", "top_logprobs");

    private final Platform platform;

    public ChatCompletionsEndpoint(Platform platform) {
        this.platform = platform;
    }

    public void handle(RoutingContext ctx) {
        Exchange ex = Exchange.of(ctx);
        ObjectNode body = Json.parseObject(ctx.body().buffer());
        String model = Fields.requiredString(body, "model");
        MessageShape.check(Fields.requiredArray(body, "messages"), ROLES, false);
        boolean stream = Fields.optionalBoolean(body, "stream", false);
        PlatformOptions options = PlatformOptions.extract(body, platform.catalogue());
        ModelEntry entry = platform.catalogue().resolve(model);
        ex.model(entry.id());
        if (entry.kind() != ModelKind.CHAT) {
            throw GatewayException.invalid("model", "Model '" + entry.id() + "' is an " + entry.kind().name().toLowerCase()
                    + " model and cannot be used with chat completions.");
        }
        if (!entry.samplingParams()) refuseResponsesOnlyParams(body, entry);

        Future<RelayOutcome> outcome = switch (entry.vendor()) {
            case OPENAI, DASHSCOPE -> forwardNative(ctx, body, entry, stream, options);
            case ANTHROPIC, GEMINI -> Future.failedFuture(new GatewayException(501, ErrorKind.NOT_IMPLEMENTED,
                    "Chat completions to " + entry.vendor().id() + " models are not available yet.", "model", null, null));
        };
        outcome.onFailure(t -> ErrorRelay.renderNative(ctx, t, entry.vendor().id()));
    }

    private static void refuseResponsesOnlyParams(ObjectNode body, ModelEntry entry) {
        for (String p : RESPONSES_ONLY_PARAMS) {
            JsonNode v = body.get(p);
            if (v != null && !v.isNull() && !(p.equals("logprobs") && v.isBoolean() && !v.booleanValue())) {
                throw GatewayException.invalid(p, "'" + p + "' is not supported by " + entry.id()
                        + " on chat completions. Series 6 models take sampling and log-probability parameters "
                        + "only through the Responses API (POST /api/v1/responses); remove '" + p + "' or use that API.");
            }
        }
    }

    private Future<RelayOutcome> forwardNative(RoutingContext ctx, ObjectNode body, ModelEntry entry, boolean stream,
                                               PlatformOptions options) {
        body.put("model", entry.upstreamId());
        boolean callerWantsUsage = false;
        if (stream) {
            ObjectNode so = Fields.optionalObject(body, "stream_options", "stream_options");
            if (so == null) so = body.putObject("stream_options");
            callerWantsUsage = so.path("include_usage").asBoolean(false);
            so.put("include_usage", true);
        }
        Vendor vendor = entry.vendor();
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json");
        UpstreamRequest req = new UpstreamRequest(platform.config().vendor(vendor), "/chat/completions", headers,
                Json.toBuffer(body), Deadlines.idleTimeoutMs(options));
        return stream
                ? platform.relay().stream(ctx, req, new OpenAiNativeTap(Exchange.of(ctx).traceId(), callerWantsUsage))
                : platform.relay().json(ctx, req, json -> OpenAiUsage.toCanonical(json.get("usage")));
    }
}
