package dev.modelgateway.endpoint.images;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.OperationCall;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.endpoint.FormBody;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.MultipartForm;
import dev.modelgateway.wire.VendorOperation;
import dev.modelgateway.wire.openai.media.OpenAiImages;
import io.vertx.ext.web.RoutingContext;

import java.util.List;

/**
 * {@code POST /api/v1/images/generations} (JSON) and {@code /images/edits} (multipart, {@code image} or
 * {@code image[]}, optional {@code mask}) for the catalogue's image models, natively to vendor B
 * ({@link OpenAiImages}: only {@code model} is rewritten; the answer is relayed as is, with token usage read from it
 * when present).
 */
public final class ImagesEndpoint {
    private final CallServices platform;

    public ImagesEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void generations(RoutingContext ctx) {
        ObjectNode body = Json.parseObject(ctx.body().buffer());
        Fields.requiredString(body, "prompt");
        ModelEntry model = imageModel(ctx, Fields.requiredString(body, "model"));
        send(ctx, model, OpenAiImages.generation(body));
    }

    public void edits(RoutingContext ctx) {
        FormBody.read(ctx, parts -> edits(ctx, parts));
    }

    private void edits(RoutingContext ctx, List<MultipartForm.Part> parts) {
        if (parts == null) throw GatewayException.invalid("image", "Send image edits as multipart/form-data with 'image', 'prompt' and 'model'.");
        MultipartForm.Part modelPart = MultipartForm.single(parts, "model");
        if (modelPart == null) throw GatewayException.invalid("model", "Missing required parameter: 'model'.");
        if (MultipartForm.single(parts, "prompt") == null) throw GatewayException.invalid("prompt", "Missing required parameter: 'prompt'.");
        if (MultipartForm.first(parts, "image", "image[]") == null) throw GatewayException.invalid("image", "Missing required parameter: 'image'.");
        send(ctx, imageModel(ctx, modelPart.text().trim()), OpenAiImages.edit(parts));
    }

    private ModelEntry imageModel(RoutingContext ctx, String requested) {
        ModelEntry model = platform.catalogue().resolve(requested);
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.IMAGE) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' is not an image model; use e.g. platform/vendorB-image-2.");
        }
        // generations and edits are vendor B's API, relayed natively; other image models only upscale
        if (model.vendor() != Vendor.OPENAI) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' does not generate or edit images; use e.g. platform/vendorB-image-2.");
        }
        return model;
    }

    private void send(RoutingContext ctx, ModelEntry model, VendorOperation operation) {
        OperationCall.run(platform, Exchange.of(ctx), ctx.body().length(), model, operation, OperationTimeouts::images);
    }
}
