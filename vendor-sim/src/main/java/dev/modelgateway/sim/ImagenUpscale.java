package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.awt.Image;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Imagen's upscaling, as Vertex AI serves it on {@code imagen-*:predict}: {@code instances[0].image.bytesBase64Encoded}
 * and {@code parameters: {mode: "upscale", upscaleConfig: {upscaleFactor: "x2"|"x3"|"x4"},
 * outputOptions: {mimeType}}}, answered with {@code predictions: [{mimeType, bytesBase64Encoded}]}. The image really is
 * resized (nearest neighbour), so callers can check the dimensions.
 */
final class ImagenUpscale {
    private static final Map<String, Integer> FACTORS = Map.of("x2", 2, "x3", 3, "x4", 4);
    private static final Map<String, String> FORMATS = Map.of("image/png", "png", "image/jpeg", "jpeg");

    private ImagenUpscale() {
    }

    static void handle(Exchange ex, JsonNode root) {
        JsonNode params = root.path("parameters");
        if (!"upscale".equals(params.path("mode").asText())) {
            ex.fail(400, "Only parameters.mode \"upscale\" is supported by this model.", null);
            return;
        }
        Integer factor = FACTORS.get(params.path("upscaleConfig").path("upscaleFactor").asText("x2"));
        if (factor == null) {
            ex.fail(400, "upscaleConfig.upscaleFactor must be one of x2, x3, x4.", null);
            return;
        }
        String mime = params.path("outputOptions").path("mimeType").asText("image/png");
        if (!FORMATS.containsKey(mime)) {
            ex.fail(400, "outputOptions.mimeType must be image/png or image/jpeg.", null);
            return;
        }
        BufferedImage source;
        try {
            source = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(
                    root.path("instances").path(0).path("image").path("bytesBase64Encoded").asText(""))));
        } catch (IllegalArgumentException | IOException e) {
            source = null;
        }
        if (source == null) {
            ex.fail(400, "Image in instances[0].image could not be decoded.", null);
            return;
        }
        int w = source.getWidth() * factor, h = source.getHeight() * factor;
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        out.getGraphics().drawImage(source.getScaledInstance(w, h, Image.SCALE_FAST), 0, 0, null);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            ImageIO.write(out, FORMATS.get(mime), bytes);
        } catch (IOException e) {
            ex.fail(500, null, null);
            return;
        }
        ObjectNode answer = Json.obj();
        answer.putArray("predictions").addObject().put("mimeType", mime)
                .put("bytesBase64Encoded", Base64.getEncoder().encodeToString(bytes.toByteArray()));
        ex.ok(Json.write(answer));
    }
}
