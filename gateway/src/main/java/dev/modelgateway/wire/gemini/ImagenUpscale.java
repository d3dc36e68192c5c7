package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.Codecs;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorJson;
import dev.modelgateway.wire.VendorOperation;

import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Image upscaling on vendor C's Imagen: {@code models/{m}:predict} with {@code parameters.mode: "upscale"}, as
 * Vertex AI defines it (https://cloud.google.com/vertex-ai/generative-ai/docs/image/upscale-image); the answer
 * is reshaped to vendor B's images response.
 */
public final class ImagenUpscale {
    private ImagenUpscale() {
    }

    /** @param scale 2 or 4; @param outputFormat png, jpeg or webp */
    public static EncodedRequest encode(String upstreamModel, byte[] image, int scale, String outputFormat) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.putArray("instances").addObject().putObject("image").put("bytesBase64Encoded", Base64.getEncoder().encodeToString(image));
        ObjectNode params = body.putObject("parameters").put("mode", "upscale");
        params.putObject("upscaleConfig").put("upscaleFactor", "x" + scale);
        params.putObject("outputOptions").put("mimeType", "image/" + outputFormat);
        return new EncodedRequest("/v1beta/models/" + upstreamModel + ":predict", body, Map.of(), List.of());
    }

    /**
     * The upscale as an operation: the image goes out as base64 in JSON; the answer is vendor B's images response,
     * with no usage (Imagen reports none); vendor C's errors are turned into the caller's shape.
     */
    public static VendorOperation operation(byte[] image, int scale, String outputFormat) {
        OperationAnswer answer = new OperationAnswer.Json(vendorBody -> new OperationAnswer.Decoded(Json.toBuffer(
                decode(VendorJson.object(vendorBody, Vendor.GEMINI), Vendor.GEMINI.id(), outputFormat)), Usage.ZERO));
        return new VendorOperation(upstreamModel -> {
            EncodedRequest encoded = encode(upstreamModel, image, scale, outputFormat);
            return OperationRequest.json(encoded.path(), encoded.body());
        }, answer, new VendorErrors.Decoded(Codecs.of(Vendor.GEMINI)), image.length);
    }

    /** {@code predictions[0].bytesBase64Encoded} as vendor B's {@code {"created","data":[{"b64_json"}],"output_format"}}. */
    public static ObjectNode decode(JsonNode answer, String vendor, String outputFormat) {
        JsonNode image = answer == null ? null : answer.at("/predictions/0/bytesBase64Encoded");
        if (image == null || !image.isTextual()) {
            throw GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor + "' returned no upscaled image.");
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode().put("created", System.currentTimeMillis() / 1000);
        out.putArray("data").addObject().put("b64_json", image.asText());
        out.put("output_format", outputFormat);
        return out;
    }
}
