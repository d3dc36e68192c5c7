package dev.modelgateway.endpoint.images;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.SingleAttempt;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.wire.Codecs;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.http.MultipartBody;
import dev.modelgateway.upstream.MultipartForm;
import dev.modelgateway.upstream.VendorRequest;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.util.Base64;
import java.util.List;

/**
 * {@code POST /api/v1/images/scales}: upscaling, translated to vendor C's Imagen upscale
 * ({@code models/{m}:predict} with {@code parameters.mode: "upscale"}, as Vertex AI defines it), because vendor B
 * has no upscaling API (an edit "make it bigger" regenerates the image). The answer is reshaped to vendor B's
 * images response; Imagen reports no usage, so the ledger row has zero tokens.
 */
public final class ImageScalesEndpoint {
    private final CallServices platform;

    public ImageScalesEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void handle(RoutingContext ctx) {
        Buffer multipart = MultipartBody.of(ctx);
        ScaleRequest req;
        if (multipart != null) {
            List<MultipartForm.Part> parts = MultipartForm.parse(ctx.request().getHeader("content-type"), multipart);
            if (parts == null) throw GatewayException.invalid("image", "Send 'image', 'model' and 'scale' as multipart/form-data or JSON.");
            req = ScaleRequest.multipart(parts);
        } else {
            req = ScaleRequest.json(ctx.body().buffer());
        }
        ModelEntry model = platform.catalogue().resolve(req.model());
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.IMAGE || !model.has("image_upscale") || model.vendor() != Vendor.GEMINI) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' does not upscale images; use platform/vendorC-imagen-upscale.");
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.putArray("instances").addObject().putObject("image").put("bytesBase64Encoded", Base64.getEncoder().encodeToString(req.image()));
        ObjectNode params = body.putObject("parameters").put("mode", "upscale");
        params.putObject("upscaleConfig").put("upscaleFactor", "x" + req.scale());
        params.putObject("outputOptions").put("mimeType", "image/" + req.outputFormat());
        VendorRequest upstream = new VendorRequest(platform.config().vendor(model.vendor()),
                "/v1beta/models/" + model.upstreamId() + ":predict",
                MultiMap.caseInsensitiveMultiMap().set("content-type", "application/json"), Json.toBuffer(body), dev.modelgateway.routing.Deadline.ofMillis(ImagesEndpoint.TIMEOUT_MS));
        JsonAnswer answer = vendorBody -> new JsonAnswer.Answer(Json.toBuffer(openAiShape(vendorBody, model, req)), Usage.ZERO);
        VendorErrorMapper errors = e -> Codecs.of(Vendor.GEMINI).decodeError(e.status(), e.body().toString());
        SingleAttempt.run(platform, ctx, model, 0, () -> platform.relay().json(ctx, upstream, answer, errors));
    }

    private static ObjectNode openAiShape(Buffer vendorBody, ModelEntry model, ScaleRequest req) {
        JsonNode parsed = Json.parseOrNull(vendorBody.toString());
        JsonNode image = parsed == null ? null : parsed.at("/predictions/0/bytesBase64Encoded");
        if (image == null || !image.isTextual()) {
            throw GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + model.vendor().id() + "' returned no upscaled image.");
        }
        ObjectNode out = Json.MAPPER.createObjectNode().put("created", System.currentTimeMillis() / 1000);
        out.putArray("data").addObject().put("b64_json", image.asText());
        out.put("output_format", req.outputFormat());
        return out;
    }
}
