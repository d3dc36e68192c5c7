package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Audio endpoints. */
class AudioTest extends OpenAiMediaTest {

    @Test
    void speechStreamsAudioChunks() throws Exception {
        HttpResponse<byte[]> wav = postBytes("/openai/v1/audio/speech", "application/json",
                "{\"model\":\"tts-1\",\"input\":\"hello world\",\"voice\":\"alloy\",\"response_format\":\"wav\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(wav.statusCode()).isEqualTo(200);
        assertThat(wav.headers().firstValue("content-type")).contains("audio/wav");
        assertThat(wav.headers().firstValue("transfer-encoding")).contains("chunked");
        assertThat(new String(wav.body(), 0, 4, StandardCharsets.US_ASCII)).isEqualTo("RIFF");
        assertThat(wav.body().length).isEqualTo(44 + 2 * "hello world".length() * 24_000 / 50);
        HttpResponse<byte[]> mp3 = postBytes("/openai/v1/audio/speech", "application/json",
                "{\"model\":\"tts-1\",\"input\":\"hello\",\"voice\":\"alloy\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(mp3.headers().firstValue("content-type")).contains("audio/mpeg");
        List<Sse> ev = sse(post("/openai/v1/audio/speech", "{\"model\":\"gpt-4o-mini-tts\",\"input\":\"hi\",\"voice\":\"alloy\",\"stream_format\":\"sse\"}",
                "authorization", AUTH).body());
        assertThat(ev.getLast().event()).isEqualTo("speech.audio.done");
        assertThat(ev.subList(0, ev.size() - 1)).allMatch(e -> e.event().equals("speech.audio.delta"));
    }

    @Test
    void transcriptionsMultipart() throws Exception {
        byte[] body = multipart("b0undary", "model", "gpt-4o-transcribe", "file", new byte[1234]);
        HttpResponse<byte[]> r = postBytes("/openai/v1/audio/transcriptions", "multipart/form-data; boundary=b0undary", body);
        JsonNode j = json(new String(r.body(), StandardCharsets.UTF_8));
        assertThat(j.path("text").asText()).isEqualTo("Simulated transcript of 1234 bytes of audio.");
        assertThat(j.path("usage").path("type").asText()).isEqualTo("tokens");
        HttpResponse<byte[]> text = postBytes("/openai/v1/audio/transcriptions", "multipart/form-data; boundary=b0undary",
                multipart("b0undary", "model", "whisper-1", "response_format", "text", "file", new byte[10]));
        assertThat(new String(text.body(), StandardCharsets.UTF_8)).isEqualTo("Simulated transcript of 10 bytes of audio.\n");
        assertThat(sim.received().getLast().path()).isEqualTo("/openai/v1/audio/transcriptions");
    }
}
