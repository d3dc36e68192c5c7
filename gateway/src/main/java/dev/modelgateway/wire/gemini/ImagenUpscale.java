package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;

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
