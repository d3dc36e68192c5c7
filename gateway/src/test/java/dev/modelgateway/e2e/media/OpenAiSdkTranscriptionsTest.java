package dev.modelgateway.e2e.media;

import com.openai.client.OpenAIClient;
import com.openai.errors.BadRequestException;
import com.openai.models.audio.AudioResponseFormat;
import com.openai.models.audio.transcriptions.Transcription;
import com.openai.models.audio.transcriptions.TranscriptionCreateParams;
import com.openai.models.audio.transcriptions.TranscriptionCreateResponse;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Synchronous transcription through openai-java's own {@code audio().transcriptions().create()}, native to vendor B. */
@ExtendWith(PerClassGateway.class)
@E2e
class OpenAiSdkTranscriptionsTest {
    static final String MODEL = "platform/vendorB-transcribe";
    static final byte[] AUDIO = "RIFF....WAVEfmt fake audio".getBytes();
    static GatewayHarness h;
    static OpenAIClient client;

    @Test
    void jsonTranscriptIsRelayedAndMetered() {
        TranscriptionCreateResponse r = client.audio().transcriptions().create(TranscriptionCreateParams.builder()
                .model(MODEL).file(AUDIO).build());
        Transcription t = r.asTranscription();
        assertThat(t.text()).isEqualTo("Simulated transcript of " + AUDIO.length + " bytes of audio.");
        var upstream = h.sim.received().getLast();
        assertThat(upstream.path()).isEqualTo("/openai/v1/audio/transcriptions");
        assertThat(upstream.body()).contains("vendorB-transcribe").doesNotContain("platform/");
        var rows = h.ledger(MODEL, 1);
        assertThat(((Number) rows.getLast().get("status")).intValue()).isEqualTo(200);
        assertThat(((Number) rows.getLast().get("output_tokens")).longValue()).isPositive();
    }

    @Test
    void textFormatKeepsTheVendorsContentType() {
        var r = client.audio().transcriptions().withRawResponse().create(TranscriptionCreateParams.builder()
                .model(MODEL).file(AUDIO).responseFormat(AudioResponseFormat.TEXT).build());
        assertThat(r.headers().values("content-type").getFirst()).startsWith("text/plain");
    }

    @Test
    void otherModelsAreRefused() {
        assertThatThrownBy(() -> client.audio().transcriptions().create(TranscriptionCreateParams.builder()
                .model("platform/vendorB-tts").file(AUDIO).build()))
                .isInstanceOf(BadRequestException.class).hasMessageContaining("does not transcribe");
    }
}
