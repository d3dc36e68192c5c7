package dev.modelgateway.endpoint.images;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.DataUrl;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;
import dev.modelgateway.wire.MultipartForm;

import java.util.Base64;
import java.util.List;
import java.util.Set;

/**
 * The gateway's {@code POST /images/scales} request, in the style of vendor B's image edits: multipart
 * ({@code image} file) or JSON ({@code image} as base64 or a data URL), with {@code model}*, {@code scale}
 * (2, 3 or 4; default 2), {@code output_format} ({@code png}|{@code jpeg}) and {@code response_format}
 * ({@code b64_json} only: the gateway stores no images to serve URLs from).
 */
record ScaleRequest(String model, byte[] image, int scale, String outputFormat) {
    private static final Set<Integer> SCALES = Set.of(2, 3, 4);
    private static final Set<String> FORMATS = Set.of("png", "jpeg");

    static ScaleRequest multipart(List<MultipartForm.Part> parts) {
        MultipartForm.Part image = MultipartForm.single(parts, "image");
        if (image == null || image.data().length == 0) throw GatewayException.invalid("image", "Missing required parameter: 'image'.");
        return of(text(parts, "model"), image.data(), text(parts, "scale"), text(parts, "output_format"), text(parts, "response_format"));
    }

    static ScaleRequest json(ObjectNode o) {
        String encoded = Fields.requiredString(o, "image");
        DataUrl data = DataUrl.parse(encoded);
        byte[] image;
        try {
            image = Base64.getDecoder().decode(data != null ? data.base64() : encoded);
        } catch (IllegalArgumentException e) {
            throw GatewayException.invalid("image", "'image' must be base64 or a data URL (data:image/png;base64,...).");
        }
        return of(Fields.requiredString(o, "model"), image, optional(o, "scale"), optional(o, "output_format"), optional(o, "response_format"));
    }

    private static ScaleRequest of(String model, byte[] image, String scale, String outputFormat, String responseFormat) {
        if (model == null || model.isBlank()) throw GatewayException.invalid("model", "Missing required parameter: 'model'.");
        int factor;
        try {
            factor = scale == null ? 2 : Integer.parseInt(scale.trim());
        } catch (NumberFormatException e) {
            factor = -1;
        }
        if (!SCALES.contains(factor)) throw GatewayException.invalid("scale", "'scale' must be 2, 3 or 4.");
        String format = outputFormat == null ? "png" : outputFormat.trim();
        if (!FORMATS.contains(format)) throw GatewayException.invalid("output_format", "'output_format' must be 'png' or 'jpeg'.");
        if (responseFormat != null && !responseFormat.trim().equals("b64_json")) {
            throw GatewayException.invalid("response_format", "Only 'b64_json' is supported: the gateway does not host images to return URLs for.");
        }
        return new ScaleRequest(model.trim(), image, factor, format);
    }

    private static String optional(JsonNode o, String name) {
        return o.hasNonNull(name) ? o.get(name).asText() : null;
    }

    private static String text(List<MultipartForm.Part> parts, String name) {
        MultipartForm.Part p = MultipartForm.single(parts, name);
        return p == null ? null : p.text();
    }
}
