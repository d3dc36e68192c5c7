package dev.modelgateway.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.wire.openai.chat.ChatSamplingRules;
import dev.modelgateway.wire.anthropic.ThinkingRules;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.openai.responses.ResponsesUsage;
import dev.modelgateway.wire.anthropic.AnthropicNativeTap;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.wire.openai.chat.ChatNativeTap;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.wire.openai.responses.ResponsesNativeTap;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.wire.anthropic.AnthropicUsage;
import dev.modelgateway.wire.openai.chat.ChatUsage;
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

    static Future<RelayOutcome> run(CallServices platform, Call call, ModelEntry model, Deadline deadline) {
        ObjectNode body = call.body().deepCopy();
        body.put("model", model.upstreamId());
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json");
        String traceId = Exchange.of(call.ctx()).traceId();
        return switch (call.inbound()) {
            case CHAT -> {
                ChatSamplingRules.check(call.body(), model);
                boolean callerWantsUsage = false;
                if (call.stream()) {
                    ObjectNode so = Fields.optionalObject(body, "stream_options", "stream_options");
                    if (so == null) so = body.putObject("stream_options");
                    callerWantsUsage = so.path("include_usage").asBoolean(false);
                    so.put("include_usage", true);
                }
                VendorRequest req = new VendorRequest(platform.config().vendor(model.vendor()), "/chat/completions",
                        headers, Json.toBuffer(body), deadline);
                yield call.stream()
                        ? platform.relay().stream(call.ctx(), req, new ChatNativeTap(callerWantsUsage), VendorErrorMapper.NATIVE)
                        : platform.relay().json(call.ctx(), req, unchanged(json -> ChatUsage.toCanonical(json.get("usage"))),
                        VendorErrorMapper.NATIVE);
            }
            case MESSAGES -> {
                ThinkingRules.apply(body, model);
                String beta = call.ctx().request().getHeader("anthropic-beta");
                if (beta != null) headers.set("anthropic-beta", beta);
                VendorRequest req = new VendorRequest(platform.config().vendor(model.vendor()), "/v1/messages",
                        headers, Json.toBuffer(body), deadline);
                yield call.stream()
                        ? platform.relay().stream(call.ctx(), req, new AnthropicNativeTap(traceId), VendorErrorMapper.NATIVE)
                        : platform.relay().json(call.ctx(), req, unchanged(json -> AnthropicUsage.toCanonical(json.get("usage"))),
                        VendorErrorMapper.NATIVE);
            }
            case RESPONSES -> {
                VendorRequest req = new VendorRequest(platform.config().vendor(model.vendor()), "/responses",
                        headers, Json.toBuffer(body), deadline);
                yield call.stream()
                        ? platform.relay().stream(call.ctx(), req, new ResponsesNativeTap(traceId), VendorErrorMapper.NATIVE)
                        : platform.relay().json(call.ctx(), req, unchanged(json -> ResponsesUsage.toCanonical(json.get("usage"))),
                        VendorErrorMapper.NATIVE);
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
