package dev.modelgateway.endpoint.images;

import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.OperationCall;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.endpoint.FormBody;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.http.MultipartBody;
import dev.modelgateway.wire.gemini.ImagenUpscale;
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
        ModelEntry model = platform.catalogue().resolve(req.model());
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.IMAGE || !model.has("image_upscale") || model.vendor() != Vendor.GEMINI) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' does not upscale images; use platform/vendorC-imagen-upscale.");
        }
        // the image goes out as base64 in JSON: encoded beside the event loop when it is large
        OperationCall.run(platform, Exchange.of(ctx), ctx.body().length(), model,
                ImagenUpscale.operation(req.image(), req.scale(), req.outputFormat()), OperationTimeouts::images);
    }
}
