package dev.modelgateway.call;

import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.RelayOutcome;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.wire.CloudWire;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.InboundCodec;
import dev.modelgateway.wire.TranslatingTap;
import dev.modelgateway.wire.VendorCodec;
import dev.modelgateway.wire.VendorJson;
import dev.modelgateway.wire.anthropic.ThinkingRules;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The translated path: caller's protocol → canonical request → the vendor's protocol, and the answer
 * back the same way (docs/architecture.md: N + M codecs, never N × M).
 */
final class TranslatedAttempt {
    private TranslatedAttempt() {
    }

    static Future<RelayOutcome> run(CallServices services, Call call, ModelEntry model, VendorEndpoint endpoint,
                                    Deadline deadline) {
        VendorCodec vendor = CloudWire.codec(endpoint);
        // decoding, looking for media and encoding walk the whole body: beside the event loop when it is large
        return Attempts.bodyWork(call, () -> {
            ThinkingRules.Adapted adapted = ThinkingRules.adapt(call.canonical(), model);
            return new Decoded(adapted, adapted.request().urlMediaNeedingBytes(vendor::canForwardUrl));
        }).compose(decoded -> {
            ThinkingRules.Adapted adapted = decoded.adapted();
            CanonicalRequest request = adapted.request();
            if (decoded.needed().isEmpty()) return send(services, call, model, vendor, adapted.warnings(), request, endpoint, deadline);
            return MediaInlining.inline(call, request, decoded.needed(), services.media())
                    .compose(inlined -> send(services, call, model, vendor, adapted.warnings(), inlined, endpoint, deadline));
        });
    }

    /** The canonical request adapted to the model, and the media given by URL that the vendor cannot fetch itself. */
    private record Decoded(ThinkingRules.Adapted adapted, List<ContentBlock.Media> needed) {
    }

    /** A vendor request encoded, and its bytes. */
    private record Encoded(EncodedRequest request, Buffer bytes) {
    }

    private static Future<RelayOutcome> send(CallServices services, Call call, ModelEntry model, VendorCodec vendor,
                                             List<String> ruleWarnings, CanonicalRequest request, VendorEndpoint endpoint, Deadline deadline) {
        return Attempts.bodyWork(call, () -> {
            EncodedRequest encoded = vendor.encodeRequest(request, model.upstreamId(), call.stream());
            return new Encoded(encoded, Json.toBuffer(encoded.body()));
        }).compose(encoded -> send(services, call, model, vendor, ruleWarnings, request, encoded, endpoint, deadline));
    }

    private static Future<RelayOutcome> send(CallServices services, Call call, ModelEntry model, VendorCodec vendor,
                                             List<String> ruleWarnings, CanonicalRequest request, Encoded encoded,
                                             VendorEndpoint endpoint, Deadline deadline) {
        InboundCodec inbound = call.codec();
        EncodedRequest upstream = encoded.request();
        List<String> warnings = new ArrayList<>(ruleWarnings);
        warnings.addAll(upstream.warnings());
        call.exchange().warn(warnings);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json");
        upstream.headers().forEach(headers::set);
        VendorRequest req = new VendorRequest(endpoint, upstream.path(), headers,
                encoded.bytes(), deadline);
        VendorErrorMapper errors = e -> vendorError(vendor, e, model, endpoint);
        if (call.stream()) {
            TranslatingTap tap = new TranslatingTap(vendor.newStreamDecoder(), inbound.newStreamEncoder(model.id(), request));
            return services.relay().stream(call.exchange(), req, tap, errors);
        }
        JsonAnswer answer = vendorBody -> {
            CanonicalResponse response = vendor.decodeResponse(VendorJson.parse(vendorBody, model.vendor()));
            return new JsonAnswer.Answer(Json.toBuffer(inbound.encodeResponse(response, model.id())), response.usage());
        };
        return services.relay().json(call.exchange(), req, answer, errors);
    }

    /**
     * The vendor's error in the caller's protocol, keeping its status and retry hints; 401/403 mean the
     * gateway's own vendor credential failed, which is not the caller's fault.
     */
    private static GatewayException vendorError(VendorCodec vendor, VendorError e, ModelEntry model, VendorEndpoint endpoint) {
        if (e.status() == 401 || e.status() == 403) {
            return new GatewayException.CredentialRefused(model.vendor().id(), e.status());
        }
        // a cloud's error may name its type in a header only (Bedrock's x-amzn-ErrorType)
        GatewayException cloud = CloudWire.nativeError(endpoint, e.status(), e.headers()::get, e.body().getBytes());
        GatewayException decoded = cloud != null ? cloud : vendor.decodeError(e.status(), e.body().toString());
        Map<String, String> headers = new HashMap<>(decoded.headers());
        for (String h : new String[]{"retry-after", "retry-after-ms"}) {
            String v = e.headers().get(h);
            if (v != null) headers.put(h, v);
        }
        return decoded.withHeaders(headers);
    }
}
