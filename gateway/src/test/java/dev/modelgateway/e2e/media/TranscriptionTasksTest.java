package dev.modelgateway.e2e.media;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.services.TranscriptionTasks;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Asynchronous transcription tasks: submit, poll, ledger, bad input, the bound on a key's unfinished tasks, and
 * survival across a gateway restart.
 */
@E2e
class TranscriptionTasksTest {
    static final String TASKS = "/api/v1/audio/transcriptions/tasks";

    static HttpResponse<String> submit(GatewayHarness h, String model, String prompt, byte[] audio) {
        String boundary = "test-boundary";
        StringBuilder sb = new StringBuilder();
        if (model != null) sb.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n").append(model).append("\r\n");
        if (prompt != null) sb.append("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"prompt\"\r\n\r\n").append(prompt).append("\r\n");
        byte[] head = sb.toString().getBytes(StandardCharsets.UTF_8);
        byte[] fileHead = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n"
                + "Content-Type: audio/wav\r\n\r\n").getBytes(StandardCharsets.UTF_8);
        byte[] tail = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(head);
        if (audio != null) {
            body.writeBytes(fileHead);
            body.writeBytes(audio);
        }
        body.writeBytes(tail);
        return h.postMultipartAuthed(TASKS, boundary, body.toByteArray());
    }

    static JsonNode poll(GatewayHarness h, String id, String state) {
        return Eventually.value("task " + id + " " + state, Duration.ofSeconds(15),
                () -> Json.parseOrNull(h.getAuthed(TASKS + "/" + id).body()), task -> state.equals(task.path("status").asText()));
    }

    @Test
    void submitReturnsAtOnceAndPollingGivesTheTranscript() {
        try (GatewayHarness h = GatewayHarness.start()) {
            var r = submit(h, "platform/vendorB-transcribe", "[[sim:delay_ms=500]]", new byte[3200]);
            assertThat(r.statusCode()).isEqualTo(202);
            JsonNode task = Json.parseOrNull(r.body());
            assertThat(task.path("id").asText()).startsWith("trtask_");
            assertThat(task.path("status").asText()).isEqualTo("queued");
            assertThat(task.path("created_at").asLong()).isPositive();
            assertThat(r.headers().firstValue("location")).hasValue(TASKS + "/" + task.path("id").asText());

            JsonNode done = poll(h, task.path("id").asText(), "succeeded");
            assertThat(done.at("/result/text").asText()).isEqualTo("Simulated transcript of 3200 bytes of audio.");
            assertThat(done.path("started_at").isNumber()).isTrue();
            assertThat(done.path("completed_at").isNumber()).isTrue();
            var upstream = h.sim.received().getLast();
            assertThat(upstream.path()).isEqualTo("/openai/v1/audio/transcriptions");
            assertThat(upstream.body()).contains("vendorB-transcribe").contains("[[sim:delay_ms=500]]");
            var rows = h.ledger("platform/vendorB-transcribe", 1);
            assertThat(((Number) rows.getLast().get("output_tokens")).longValue()).isPositive();

            assertThat(h.getAuthed(TASKS + "/trtask_unknown").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void vendorRefusalEndsFailedAndBadInputIs400() {
        try (GatewayHarness h = GatewayHarness.start()) {
            String id = Json.parseOrNull(submit(h, "platform/vendorB-transcribe", "[[sim:status=400]]", new byte[10]).body()).path("id").asText();
            JsonNode failed = poll(h, id, "failed");
            assertThat(failed.at("/error/status").asInt()).isEqualTo(400);
            assertThat(failed.path("result").isNull()).isTrue();

            var r = submit(h, "platform/vendorB-transcribe", null, null);
            assertThat(r.statusCode()).isEqualTo(400);
            assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("file");
            r = submit(h, null, null, new byte[10]);
            assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("model");
            r = submit(h, "platform/vendorB-5.5", null, new byte[10]);
            assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).isEqualTo("model");
        }
    }

    @Test
    void aTaskInterruptedByARestartIsResumedByTheNextGateway() {
        String db = GatewayHarness.tempDatabaseUrl();
        String id;
        try (GatewayHarness first = GatewayHarness.builder().database(db).start()) {
            id = Json.parseOrNull(submit(first, "platform/vendorB-transcribe", "[[sim:delay_ms=3000]]", new byte[640]).body())
                    .path("id").asText();
            poll(first, id, "running");
        }
        try (GatewayHarness second = GatewayHarness.builder().database(db).start()) {
            JsonNode done = poll(second, id, "succeeded");
            assertThat(done.at("/result/text").asText()).contains("640 bytes");
            assertThat(done.path("attempts").asInt()).isEqualTo(2);
            assertThat(second.sim.received()).anySatisfy(r -> assertThat(r.path()).isEqualTo("/openai/v1/audio/transcriptions"));
        }
    }

    @Test
    void aKeyHasAtMostSixteenUnfinishedTasks() {
        try (GatewayHarness h = GatewayHarness.start()) {
            for (int i = 0; i < TranscriptionTasks.MAX_UNFINISHED_PER_KEY; i++) {
                var r = submit(h, "platform/vendorB-transcribe", "[[sim:delay_ms=5000]]", new byte[10]);
                assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
            }
            var refused = submit(h, "platform/vendorB-transcribe", "[[sim:delay_ms=5000]]", new byte[10]);
            assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
            assertThat(Json.parseOrNull(refused.body()).at("/error/code").asText()).isEqualTo("too_many_tasks");
            assertThat(refused.headers().firstValue("retry-after")).isPresent();
        }
    }
}
