package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;

/** Images endpoints. */
class ImagesTest extends OpenAiMediaTest {

    @Test
    void imageGenerationsUrlAndBase64() throws Exception {
        JsonNode url = json(post("/openai/v1/images/generations", "{\"model\":\"dall-e-3\",\"prompt\":\"a cat\"}", "authorization", AUTH).body());
        String link = url.path("data").get(0).path("url").asText();
        assertThat(url.path("data").get(0).path("revised_prompt").asText()).isEqualTo("a cat");
        HttpResponse<byte[]> png = http.send(HttpRequest.newBuilder(URI.create(link)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(png.headers().firstValue("content-type")).contains("image/png");
        assertThat(new String(png.body(), 1, 3, StandardCharsets.US_ASCII)).isEqualTo("PNG");

        JsonNode b64 = json(post("/openai/v1/images/generations", "{\"model\":\"gpt-image-1\",\"prompt\":\"a cat\",\"n\":2}", "authorization", AUTH).body());
        assertThat(b64.path("data")).hasSize(2);
        assertThat(Base64.getDecoder().decode(b64.path("data").get(0).path("b64_json").asText())).isEqualTo(ImagesApi.PNG);
        assertThat(b64.path("usage").path("total_tokens").asInt()).isPositive();
    }

    @Test
    void imageEditsMultipart() throws Exception {
        byte[] body = multipart("XyZ", "model", "gpt-image-1", "prompt", "make it blue", "image[]", ImagesApi.PNG, "image[]", ImagesApi.PNG);
        HttpResponse<byte[]> r = postBytes("/openai/v1/images/edits", "multipart/form-data; boundary=XyZ", body);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(new String(r.body(), StandardCharsets.UTF_8)).path("data").get(0).has("b64_json")).isTrue();
        HttpResponse<byte[]> missing = postBytes("/openai/v1/images/edits", "multipart/form-data; boundary=XyZ", multipart("XyZ", "prompt", "p"));
        assertThat(missing.statusCode()).isEqualTo(400);
        HttpResponse<byte[]> fault = postBytes("/openai/v1/images/edits", "multipart/form-data; boundary=XyZ",
                multipart("XyZ", "prompt", "p [[sim:status=429]]", "image", ImagesApi.PNG));
        assertThat(fault.statusCode()).isEqualTo(429);
    }
}
