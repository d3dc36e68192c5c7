package dev.modelgateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.api.chat.SeriesSixRules;
import dev.modelgateway.api.messages.ThinkingRules;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.protocol.responses.ResponsesUsage;
import dev.modelgateway.relay.AnthropicNativeTap;
import dev.modelgateway.relay.JsonAnswer;
import dev.modelgateway.relay.OpenAiNativeTap;
import dev.modelgateway.relay.RelayOutcome;
import dev.modelgateway.relay.ResponsesNativeTap;
import dev.modelgateway.relay.UpstreamErrorMapper;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.server.Exchange;
import dev.modelgateway.upstream.UpstreamRequest;
import dev.modelgateway.vendor.anthropic.AnthropicUsage;
import dev.modelgateway.vendor.openai.OpenAiUsage;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

import java.util.function.Function;

/**
 * The native fast path (DESIGN "request path"): the caller already speaks the vendor's protocol, so the
 * body is forwarded with only {@code model} rewritten (plus the few platform rules), and the answer is
 * relayed as the vendor sent it.
 */
final class NativeAttempt {
    private NativeAttempt() {
    }

    static Future<RelayOutcome> run(Platform platform, Call call, ModelEntry model, Deadline deadline) {
        ObjectNode body = call.body().deepCopy();
        body.put("model", model.upstreamId());
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json");
        String traceId = Exchange.of(call.ctx()).traceId();
        return switch (call.inbound()) {
            case CHAT -> {
                SeriesSixRules.check(call.body(), model);
                boolean callerWantsUsage = false;
                if (call.stream()) {
                    ObjectNode so = Fields.optionalObject(body, "stream_options", "stream_options");
                    if (so == null) so = body.putObject("stream_options");
                    callerWantsUsage = so.path("include_usage").asBoolean(false);
                    so.put("include_usage", true);
                }
                UpstreamRequest req = new UpstreamRequest(platform.config().vendor(model.vendor()), "/chat/completions",
                        headers, Json.toBuffer(body), deadline);
                yield call.stream()
                        ? platform.relay().stream(call.ctx(), req, new OpenAiNativeTap(traceId, callerWantsUsage), UpstreamErrorMapper.NATIVE)
                        : platform.relay().json(call.ctx(), req, unchanged(json -> OpenAiUsage.toCanonical(json.get("usage"))),
                        UpstreamErrorMapper.NATIVE);
            }
            case MESSAGES -> {
                ThinkingRules.apply(body, model);
                String beta = call.ctx().request().getHeader("anthropic-beta");
                if (beta != null) headers.set("anthropic-beta", beta);
                UpstreamRequest req = new UpstreamRequest(platform.config().vendor(model.vendor()), "/v1/messages",
                        headers, Json.toBuffer(body), deadline);
                yield call.stream()
                        ? platform.relay().stream(call.ctx(), req, new AnthropicNativeTap(traceId), UpstreamErrorMapper.NATIVE)
                        : platform.relay().json(call.ctx(), req, unchanged(json -> AnthropicUsage.toCanonical(json.get("usage"))),
                        UpstreamErrorMapper.NATIVE);
            }
            case RESPONSES -> {
                UpstreamRequest req = new UpstreamRequest(platform.config().vendor(model.vendor()), "/responses",
                        headers, Json.toBuffer(body), deadline);
                yield call.stream()
                        ? platform.relay().stream(call.ctx(), req, new ResponsesNativeTap(traceId), UpstreamErrorMapper.NATIVE)
                        : platform.relay().json(call.ctx(), req, unchanged(json -> ResponsesUsage.toCanonical(json.get("usage"))),
                        UpstreamErrorMapper.NATIVE);
            }
        };
    }

    /** The vendor's bytes go back untouched; the body is parsed only to read usage. */
    private static JsonAnswer unchanged(Function<JsonNode, dev.modelgateway.canonical.Usage> usage) {
        return (Buffer vendorBody) -> {
            JsonNode parsed = Json.parseOrNull(vendorBody.toString());
            if (parsed == null) {
                throw GatewayException.of(ErrorKind.UPSTREAM, "The vendor returned a response that is not valid JSON.");
            }
            return new JsonAnswer.Answer(vendorBody, usage.apply(parsed));
        };
    }
}
