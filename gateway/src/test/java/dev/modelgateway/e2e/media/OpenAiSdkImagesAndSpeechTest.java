package dev.modelgateway.e2e.media;

import com.openai.client.OpenAIClient;
import com.openai.core.http.HttpResponse;
import com.openai.errors.BadRequestException;
import com.openai.models.audio.speech.SpeechCreateParams;
import com.openai.models.images.ImageEditParams;
import com.openai.models.images.ImageGenerateParams;
import com.openai.models.images.ImagesResponse;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.InputStream;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Image generation and edits, and speech, through openai-java natively to vendor B. */
@ExtendWith(PerClassGateway.class)
@E2e
class OpenAiSdkImagesAndSpeechTest {
    static final byte[] PNG = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==");
    static GatewayHarness h;
    static OpenAIClient client;

    @Test
    void generateAndEdit() {
        ImagesResponse generated = client.images().generate(ImageGenerateParams.builder().model("platform/vendorB-image-2")
                .prompt("a lighthouse").responseFormat(ImageGenerateParams.ResponseFormat.B64_JSON).n(2).build());
        assertThat(generated.data().orElseThrow()).hasSize(2).allSatisfy(i -> assertThat(i.b64Json()).isPresent());
        assertThat(Json.parseOrNull(h.sim.received().getLast().body()).path("model").asText()).isEqualTo("vendorB-image-2");

        ImagesResponse edited = client.images().edit(ImageEditParams.builder().model("platform/vendorB-image-2")
                .image(PNG).prompt("make it blue").build());
        assertThat(edited.data().orElseThrow()).hasSize(1);
        var upstream = h.sim.received().getLast();
        assertThat(upstream.path()).isEqualTo("/openai/v1/images/edits");
        assertThat(upstream.body()).contains("vendorB-image-2").contains("make it blue").doesNotContain("platform/");
        assertThat(h.ledger("platform/vendorB-image-2", 2)).hasSizeGreaterThanOrEqualTo(2);

        assertThatThrownBy(() -> client.images().generate(ImageGenerateParams.builder().model("platform/vendorB-5.5").prompt("x").build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("not an image model");
        var r = h.postAuthed("/api/v1/images/generations", "{\"model\":\"platform/vendorB-image-2\"}");
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("prompt");
    }

    @Test
    void speechStreamsTheVendorsBytes() throws Exception {
        try (HttpResponse resp = client.audio().speech().create(SpeechCreateParams.builder().model("platform/vendorB-tts")
                .input("Hello from the gateway").voice("alloy").responseFormat(SpeechCreateParams.ResponseFormat.WAV).build());
             InputStream in = resp.body()) {
            byte[] audio = in.readAllBytes();
            assertThat(new String(audio, 0, 4)).isEqualTo("RIFF");
            assertThat(resp.headers().values("content-type")).contains("audio/wav");
        }
        var rows = h.ledger("platform/vendorB-tts", 1);
        assertThat(((Number) rows.getLast().get("input_tokens")).longValue()).isPositive();
        var r = h.postAuthed("/api/v1/audio/speech", "{\"model\":\"platform/vendorB-tts\",\"input\":\"hi\"}");
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("voice");
        r = h.postAuthed("/api/v1/audio/speech", "{\"model\":\"platform/vendorB-transcribe\",\"input\":\"hi\",\"voice\":\"alloy\"}");
        assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("model");
    }
}
