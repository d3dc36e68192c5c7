package dev.modelgateway.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.wire.NativeFormat;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;

/**
 * The native fast path (docs/architecture.md, "The request path"): the caller already speaks the vendor's
 * protocol, so the body is forwarded with only {@code model} rewritten (plus the format's model rules), and
 * the answer is relayed as the vendor sent it.
 */
final class NativeAttempt {
    private NativeAttempt() {
    }

    static Future<RelayOutcome> run(CallServices services, Call call, ModelEntry model, Deadline deadline) {
        NativeFormat format = call.protocol().nativeFormat();
        ObjectNode body = call.body().deepCopy();
        body.put("model", model.upstreamId());
        format.applyModelRules(body, model);
        call.exchange().warn(format.adaptToDialect(body, model));
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json");
        call.forwardedHeaders().forEach(headers::set);
        if (call.stream()) {
            var tap = format.streamTap(body, call.exchange().traceId(), call.answerIds());
            return services.relay().stream(call.exchange(), request(services, model, format, headers, body, deadline),
                    tap, VendorErrorMapper.NATIVE);
        }
        // The vendor's bytes go back untouched; the body is parsed only to read usage.
        JsonAnswer unchanged = vendorBody -> {
            JsonNode parsed = Json.parseOrNull(vendorBody.toString());
            if (parsed == null) {
                throw GatewayException.of(ErrorKind.UPSTREAM, "The vendor returned a response that is not valid JSON.");
            }
            format.answerIds(parsed).forEach(call.answerIds());
            return new JsonAnswer.Answer(vendorBody, format.usage(parsed));
        };
        return services.relay().json(call.exchange(), request(services, model, format, headers, body, deadline),
                unchanged, VendorErrorMapper.NATIVE);
    }

    private static VendorRequest request(CallServices services, ModelEntry model, NativeFormat format, MultiMap headers,
                                         ObjectNode body, Deadline deadline) {
        return new VendorRequest(services.config().vendor(model.vendor()), format.path(), headers, Json.toBuffer(body),
                deadline);
    }
}
