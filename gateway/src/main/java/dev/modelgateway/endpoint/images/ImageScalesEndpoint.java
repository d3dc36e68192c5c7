package dev.modelgateway.endpoint.images;

import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.SingleAttempt;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.endpoint.FormBody;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.http.MultipartBody;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.upstream.VendorRequest;
import dev.modelgateway.wire.Codecs;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.gemini.ImagenUpscale;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /api/v1/images/scales}: upscaling, translated to vendor C's Imagen upscale ({@link ImagenUpscale}),
 * because vendor B
 * has no upscaling API (an edit "make it bigger" regenerates the image). The answer is reshaped to vendor B's
 * images response; Imagen reports no usage, so the ledger row has zero tokens.
 */
public final class ImageScalesEndpoint {
    private final CallServices platform;

    public ImageScalesEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void handle(RoutingContext ctx) {
        if (MultipartBody.of(ctx) == null) {
            JsonBody.read(ctx, ScaleRequest::json, req -> handle(ctx, req));
            return;
        }
        FormBody.read(ctx, parts -> {
            if (parts == null) throw GatewayException.invalid("image", "Send 'image', 'model' and 'scale' as multipart/form-data or JSON.");
            handle(ctx, ScaleRequest.multipart(parts));
        });
    }

    private void handle(RoutingContext ctx, ScaleRequest req) {
        ModelEntry model = platform.served(platform.catalogue().resolve(req.model()));
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.IMAGE || !model.has("image_upscale") || model.vendor() != Vendor.GEMINI) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' does not upscale images; use platform/vendorC-imagen-upscale.");
        }
        JsonAnswer answer = vendorBody -> new JsonAnswer.Answer(Json.toBuffer(
                ImagenUpscale.decode(Json.parseOrNull(vendorBody), model.vendor().id(), req.outputFormat())),
                Usage.ZERO);
        VendorErrorMapper errors = e -> Codecs.of(Vendor.GEMINI).decodeError(e.status(), e.body().toString());
        // the image goes out as base64 in JSON: megabytes to encode, beside the event loop when large
        SingleAttempt.run(platform, Exchange.of(ctx), ctx.body().length(), model, 0,
                () -> SingleAttempt.bodyWork(Exchange.of(ctx), req.image().length, () -> {
                    EncodedRequest encoded = ImagenUpscale.encode(model.upstreamId(), req.image(), req.scale(), req.outputFormat());
                    return new VendorRequest(platform.endpointOf(model), encoded.path(),
                            MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json"), Json.toBuffer(encoded.body()),
                            Deadline.ofMillis(ImagesEndpoint.TIMEOUT_MS));
                }).compose(upstream -> platform.relay().json(Exchange.of(ctx), upstream, answer, errors)));
    }
}
