package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.MultipartForms;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transcription tasks in the shared PostgreSQL: submitted through one instance, followed through another, and
 * run once although another instance starts while the task is running; another key's task is answered as an
 * unknown one.
 */
@E2e
class SharedTranscriptionTasksTest extends TwoInstances {
    static final String TASKS = "/api/v1/audio/transcriptions/tasks";
    static final String TRANSCRIPTIONS = "/openai/v1/audio/transcriptions";

    private static HttpResponse<String> submit(GatewayHarness g, String key, String prompt) {
        String boundary = "b0undary";
        byte[] body = MultipartForms.of(boundary, Map.of("model", "platform/vendorB-transcribe", "prompt", prompt), "file", "a.wav",
                "audio/wav", new byte[640]);
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + g.gateway.port() + TASKS))
                    .timeout(Duration.ofSeconds(20)).header("authorization", "Bearer " + key)
                    .header("content-type", "multipart/form-data; boundary=" + boundary)
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static HttpResponse<String> get(GatewayHarness g, String key, String id) {
        return g.get(TASKS + "/" + id, "authorization", "Bearer " + key);
    }

    private static JsonNode poll(GatewayHarness g, String key, String id, String state) {
        return Eventually.value("task " + id + " " + state, Duration.ofSeconds(30),
                () -> Json.parseOrNull(get(g, key, id).body()), task -> state.equals(task.path("status").asText()));
    }

    private long transcriptionsSent() {
        return a.sim.received().stream().filter(r -> r.path().equals(TRANSCRIPTIONS)).count();
    }

    @Test
    void aTaskSubmittedThroughOneInstanceIsFollowedThroughTheOtherAndItsKeysAlone() throws InterruptedException {
        AdminApi admin = new AdminApi(a);
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"task-owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"task-other\"}");
        HttpResponse<String> submitted = submit(a, owner.secret(), "[[sim:delay_ms=300]]");
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String id = Json.parseOrNull(submitted.body()).path("id").asText();

        JsonNode done = poll(b, owner.secret(), id, "succeeded");
        assertThat(done.at("/result/text").asText()).isEqualTo("Simulated transcript of 640 bytes of audio.");

        for (GatewayHarness g : List.of(a, b)) {
            HttpResponse<String> foreign = get(g, other.secret(), id);
            HttpResponse<String> unknown = get(g, other.secret(), "trtask_unknown");
            assertThat(foreign.statusCode()).as(foreign.body()).isEqualTo(404).isEqualTo(unknown.statusCode());
            assertThat(foreign.body().replace(id, "ID")).isEqualTo(unknown.body().replace("trtask_unknown", "ID"));
        }
    }

    @Test
    void anInstanceStartingWhileATaskRunsDoesNotRunItAgain() throws InterruptedException {
        HttpResponse<String> submitted = submit(a, GatewayHarness.KEY, "[[sim:delay_ms=3000]]");
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        String id = Json.parseOrNull(submitted.body()).path("id").asText();
        poll(b, GatewayHarness.KEY, id, "running");

        try (GatewayHarness third = stores.gateway().simulator(a.sim).start()) {
            JsonNode done = poll(third, GatewayHarness.KEY, id, "succeeded");
            assertThat(done.path("attempts").asInt()).as("run once: " + done).isEqualTo(1);
        }
        assertThat(transcriptionsSent()).isEqualTo(1);
    }
}
