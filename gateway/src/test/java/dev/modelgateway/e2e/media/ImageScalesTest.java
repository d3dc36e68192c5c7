package dev.modelgateway.e2e.media;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.imageio.ImageIO;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /images/scales} over raw HTTP (openai-java has no method for it), JSON and multipart, translated to the
 * simulator's Imagen upscale.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class ImageScalesTest {
    static final String MODEL = "platform/vendorC-imagen-upscale";
    static GatewayHarness h;

    @Test
    void jsonRequestIsUpscaledByVendorC() throws Exception {
        String png = Base64.getEncoder().encodeToString(png(3, 2));
        var r = h.postAuthed("/api/v1/images/scales", "{\"model\":\"" + MODEL + "\",\"image\":\"data:image/png;base64," + png + "\",\"scale\":4}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode body = Json.parseOrNull(r.body());
        assertThat(body.path("created").asLong()).isPositive();
        assertThat(body.path("output_format").asText()).isEqualTo("png");
        BufferedImage out = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(body.at("/data/0/b64_json").asText())));
        assertThat(out.getWidth()).isEqualTo(12);
        assertThat(out.getHeight()).isEqualTo(8);

        var upstream = h.sim.received().getLast();
        assertThat(upstream.path()).isEqualTo("/gemini/v1beta/models/vendorC-imagen-upscale:predict");
        JsonNode sent = Json.parseOrNull(upstream.body());
        assertThat(sent.at("/parameters/mode").asText()).isEqualTo("upscale");
        assertThat(sent.at("/parameters/upscaleConfig/upscaleFactor").asText()).isEqualTo("x4");
        assertThat(h.ledger(MODEL, 1)).anySatisfy(row -> assertThat(((Number) row.get("status")).intValue()).isEqualTo(200));
    }

    @Test
    void multipartRequestLikeImageEdits() throws Exception {
        String boundary = "gwtest";
        ByteArrayOutputStream form = new ByteArrayOutputStream();
        form.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n" + MODEL + "\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"output_format\"\r\n\r\njpeg\r\n"
                + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"image\"; filename=\"in.png\"\r\nContent-Type: image/png\r\n\r\n")
                .getBytes(StandardCharsets.UTF_8));
        form.write(png(2, 2));
        form.write(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = h.postMultipartAuthed("/api/v1/images/scales", boundary, form.toByteArray());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode body = Json.parseOrNull(r.body());
        assertThat(body.path("output_format").asText()).isEqualTo("jpeg");
        assertThat(ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(body.at("/data/0/b64_json").asText()))).getWidth())
                .isEqualTo(4);
    }

    @Test
    void badInputNamesTheField() throws Exception {
        String png = Base64.getEncoder().encodeToString(png(1, 1));
        assertThat(param("{\"model\":\"" + MODEL + "\",\"image\":\"" + png + "\",\"scale\":8}")).isEqualTo("scale");
        assertThat(param("{\"model\":\"" + MODEL + "\"}")).isEqualTo("image");
        assertThat(param("{\"model\":\"" + MODEL + "\",\"image\":\"" + png + "\",\"response_format\":\"url\"}")).isEqualTo("response_format");
        assertThat(param("{\"model\":\"platform/vendorB-image-2\",\"image\":\"" + png + "\"}")).isEqualTo("model");
        var generate = h.postAuthed("/api/v1/images/generations", "{\"model\":\"" + MODEL + "\",\"prompt\":\"x\"}");
        assertThat(Json.parseOrNull(generate.body()).at("/error/param").asText()).isEqualTo("model");
        // an image vendor C cannot decode comes back as its 400, in the OpenAI shape
        var r = h.postAuthed("/api/v1/images/scales", "{\"model\":\"" + MODEL + "\",\"image\":\"bm90IGFuIGltYWdl\"}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(r.body()).at("/error/message").asText()).contains("could not be decoded");
    }

    private static String param(String body) {
        var r = h.postAuthed("/api/v1/images/scales", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        return Json.parseOrNull(r.body()).at("/error/param").asText();
    }

    private static byte[] png(int w, int h) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB), "png", out);
        return out.toByteArray();
    }
}
