package dev.modelgateway.call;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.CloudWire;
import dev.modelgateway.wire.NativeFormat;
import dev.modelgateway.wire.StreamTap;
import dev.modelgateway.wire.VendorJson;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

import java.util.List;

/**
 * The native fast path (docs/architecture.md, "The request path"): the caller already speaks the vendor's
 * protocol, so the body is forwarded with only {@code model} rewritten (plus the format's model rules), and
 * the answer is relayed as the vendor sent it.
 */
final class NativeAttempt {
    private NativeAttempt() {
    }

    /**
     * The body for the vendor (the caller's copy with the model rules applied) as bytes, and the stream's tap
     * (null when not streaming), made first because it may add to the body (the usage chunk), and the dialect's
     * warnings.
     */
    private record Upstream(Buffer bytes, StreamTap tap, List<String> warnings, CloudWire.Native hosted) {
    }

    static Future<RelayOutcome> run(CallServices services, Call call, ModelEntry model, VendorEndpoint endpoint,
                                    Deadline deadline) {
        NativeFormat format = call.protocol().nativeFormat();
        // copying and serializing the whole body: beside the event loop when it is large
        return Attempts.bodyWork(call, () -> {
            ObjectNode body = call.body().deepCopy();
            body.put("model", model.upstreamId());
            format.applyModelRules(body, model);
            List<String> warnings = format.adaptToDialect(body, model);
            StreamTap tap = call.stream() ? format.streamTap(body, call.exchange().traceId(), call.answerIds()) : null;
            // on a cloud, the same body on the cloud's path (docs/clouds.md); a vendor's own API: unchanged
            CloudWire.Native hosted = CloudWire.nativeRequest(endpoint, format.path(), body, call.forwardedHeaders(),
                    model.upstreamId(), call.stream());
            if (!hosted.warnings().isEmpty()) {
                warnings = new java.util.ArrayList<>(warnings);
                warnings.addAll(hosted.warnings());
            }
            return new Upstream(Json.toBuffer(body), tap, warnings, hosted);
        }).compose(upstream -> send(services, call, model, format, upstream, endpoint, deadline));
    }

    private static Future<RelayOutcome> send(CallServices services, Call call, ModelEntry model, NativeFormat format,
                                             Upstream upstream, VendorEndpoint endpoint, Deadline deadline) {
        call.exchange().warn(upstream.warnings());
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json");
        upstream.hosted().headers().forEach(headers::set);
        VendorRequest request = new VendorRequest(endpoint, upstream.hosted().path(), headers,
                upstream.bytes(), deadline);
        // a cloud's own errors (Bedrock's, Vertex's google.rpc ones) in the caller's shape; the vendor's relayed as sent
        VendorErrorMapper errors = endpoint.cloud() == null ? VendorErrorMapper.NATIVE : e -> {
            GatewayException cloud = CloudWire.nativeError(endpoint, e.status(), e.headers()::get, e.body().getBytes());
            return cloud != null ? cloud : e;
        };
        if (call.stream()) return services.relay().stream(call.exchange(), request, upstream.tap(), errors);
        // The vendor's bytes go back untouched; of the body only what usage (and the answer's ids) need is built.
        JsonAnswer unchanged = vendorBody -> {
            JsonNode parsed = VendorJson.fields(vendorBody, format.answerFields(), model.vendor());
            format.answerIds(parsed).forEach(call.answerIds());
            return new JsonAnswer.Answer(vendorBody, format.usage(parsed));
        };
        return services.relay().json(call.exchange(), request, unchanged, errors);
    }
}
