package dev.modelgateway.e2e.routing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.MultipartForms;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each endpoint without {@code platform_options} is bounded by its own {@code timeouts.*} setting: set to 1 s, a
 * vendor that answers after 3 s gets the caller the deadline's 504; transcriptions keep their 300 s, so the same slow
 * answer reaches the caller.
 */
@E2e
class OperationTimeoutsTest {
    /** Longer than the 1 s settings, far shorter than the defaults (30 s and more). */
    static final String SLOW = "[[sim:delay_ms=3000]]";
    static GatewayHarness h;

    @BeforeAll
    static void start() {
        h = GatewayHarness.builder().timeouts(new OperationTimeouts(1, 1, 1, 1, 1, 300)).start();
    }

    @AfterAll
    static void stop() {
        h.close();
    }

    @Test
    void embeddingsAreCutAtTheirSetting() {
        assertDeadline(h.postAuthed("/api/v1/embeddings", "{\"model\":\"platform/text-embedding-3-small\",\"input\":\"" + SLOW + "\"}"));
    }

    @Test
    void imagesAreCutAtTheirSetting() {
        assertDeadline(h.postAuthed("/api/v1/images/generations", "{\"model\":\"platform/vendorB-image-2\",\"prompt\":\"" + SLOW + "\"}"));
    }

    @Test
    void speechIsCutAtItsSetting() {
        assertDeadline(h.postAuthed("/api/v1/audio/speech", "{\"model\":\"platform/vendorB-tts\",\"input\":\"" + SLOW + "\",\"voice\":\"alloy\"}"));
    }

    @Test
    void tokenCountingIsCutAtItsSetting() {
        assertDeadline(h.postAuthed("/api/v1/messages/count_tokens",
                "{\"model\":\"platform/vendorA-sonnet-5\",\"messages\":[{\"role\":\"user\",\"content\":\"" + SLOW + "\"}]}"));
    }

    @Test
    void transcriptionsKeepTheirOwnLongerSetting() {
        String boundary = "timeouts-test";
        byte[] form = MultipartForms.of(boundary, Map.of("model", "platform/vendorB-transcribe", "prompt", SLOW), "file", "a.wav",
                "audio/wav", new byte[3200]);
        HttpResponse<String> r = h.postMultipartAuthed("/api/v1/audio/transcriptions", boundary, form);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    /**
     * The deadline's answer in the caller's error shape (the OpenAI one, or the messages one for token counting),
     * naming the configured 1 s: not the vendor's (it would have answered after 3 s).
     */
    private static void assertDeadline(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(504);
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        assertThat(error.path("message").asText()).contains("did not answer within the call's deadline (1000 ms)");
    }
}
