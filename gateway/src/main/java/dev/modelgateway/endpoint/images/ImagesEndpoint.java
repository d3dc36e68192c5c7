package dev.modelgateway.endpoint.images;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.SingleAttempt;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.endpoint.FormBody;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.Deadline;
import dev.modelgateway.upstream.JsonAnswer;
import dev.modelgateway.upstream.MultipartForm;
import dev.modelgateway.upstream.VendorErrorMapper;
import dev.modelgateway.upstream.VendorRequest;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /api/v1/images/generations} (JSON) and {@code /images/edits} (multipart, {@code image} or
 * {@code image[]}, optional {@code mask}) for the catalogue's image models, natively to vendor B: only
 * {@code model} is rewritten; the answer is relayed as is, with token usage read from it when present.
 */
public final class ImagesEndpoint {
    static final long TIMEOUT_MS = 300_000;
    private final CallServices platform;

    public ImagesEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void generations(RoutingContext ctx) {
        ObjectNode body = Json.parseObject(ctx.body().buffer());
        Fields.requiredString(body, "prompt");
        ModelEntry model = imageModel(ctx, Fields.requiredString(body, "model"));
        ObjectNode upstream = body.deepCopy().put("model", model.upstreamId());
        send(ctx, model, "/images/generations", "application/json", Json.toBuffer(upstream));
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
        ModelEntry model = imageModel(ctx, modelPart.text().trim());
        List<MultipartForm.Part> upstream = new ArrayList<>();
        for (MultipartForm.Part p : parts) upstream.add(p.name().equals("model") ? MultipartForm.Part.field("model", model.upstreamId()) : p);
        FormBody.encode(ctx, upstream, encoded -> send(ctx, model, "/images/edits", encoded.contentType(), encoded.body()));
    }

    private ModelEntry imageModel(RoutingContext ctx, String requested) {
        ModelEntry model = platform.served(platform.catalogue().resolve(requested));
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

    private void send(RoutingContext ctx, ModelEntry model, String path, String contentType, Buffer body) {
        VendorRequest req = new VendorRequest(platform.endpointOf(model), path,
                MultiMap.caseInsensitiveMultiMap().set("content-type", contentType), body, Deadline.ofMillis(TIMEOUT_MS));
        JsonAnswer answer = vendorBody -> {
            JsonNode parsed = Json.parseOrNull(vendorBody);
            if (parsed == null) throw GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + model.vendor().id() + "' returned invalid JSON.");
            JsonNode u = parsed.path("usage");
            return new JsonAnswer.Answer(vendorBody, new Usage(u.path("input_tokens").asLong(0), 0, 0, 0, u.path("output_tokens").asLong(0), 0));
        };
        SingleAttempt.run(platform, Exchange.of(ctx), ctx.body().length(), model, 0,
                () -> platform.relay().json(Exchange.of(ctx), req, answer, VendorErrorMapper.NATIVE));
    }
}
