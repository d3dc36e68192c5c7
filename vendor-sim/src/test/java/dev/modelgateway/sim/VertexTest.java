package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class VertexTest extends SimTestBase {
    private static final String PREFIX = "/v1/projects/sim-project/locations/us-east5/publishers/";
    private static final String BEARER = "Bearer " + VertexApi.STATIC_TOKEN;

    @AfterEach
    void defaultTokens() {
        sim.acceptVertexTokens(VertexApi.STATIC_TOKEN::equals);
    }

    private static HttpResponse<String> vertex(String path, String body) {
        return post(path, body, "authorization", BEARER);
    }

    @Test
    void rawPredictAnswersVendorAsMessageForThePathsModel() {
        HttpResponse<String> r = vertex(PREFIX + "anthropic/models/claude-sonnet-4@20250514:rawPredict", """
                {"anthropic_version":"vertex-2023-10-16","max_tokens":64,"messages":[{"role":"user","content":"Hi"}]}""");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode msg = json(r.body());
        assertThat(msg.path("type").asText()).isEqualTo("message");
        assertThat(msg.path("model").asText()).isEqualTo("claude-sonnet-4@20250514");
        assertThat(msg.at("/content/0/text").asText()).startsWith("Hello from claude-sonnet-4@20250514");
        assertThat(sim.received().getFirst().vendor()).isEqualTo("vertex");
    }

    @Test
    void streamRawPredictStreamsVendorAsEventsAndCacheReadsAreReported() {
        String body = """
                {"anthropic_version":"vertex-2023-10-16","max_tokens":64,"stream":true,
                 "system":[{"type":"text","text":"%s","cache_control":{"type":"ephemeral"}}],
                 "messages":[{"role":"user","content":"Hi"}]}""".formatted("long instructions ".repeat(300));
        String path = PREFIX + "anthropic/models/claude-sonnet-4@20250514:streamRawPredict";
        vertex(path, body);
        List<Sse> events = sse(vertex(path, body).body());
        assertThat(events.getFirst().event()).isEqualTo("message_start");
        assertThat(events.getLast().event()).isEqualTo("message_stop");
        assertThat(events.getFirst().json().at("/message/usage/cache_read_input_tokens").asInt()).isPositive();
    }

    @Test
    void theBodyMustCarryVertexsVersionAndNoModel() {
        String path = PREFIX + "anthropic/models/claude-sonnet-4@20250514:rawPredict";
        HttpResponse<String> noVersion = vertex(path, "{\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");
        assertThat(noVersion.statusCode()).isEqualTo(400);
        assertThat(json(noVersion.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(vertex(path, "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":8,\"messages\":[]}").statusCode()).isEqualTo(400);
        assertThat(vertex(path, "{\"anthropic_version\":\"vertex-2023-10-16\",\"model\":\"x\",\"max_tokens\":8,\"messages\":[]}")
                .body()).contains("model: Extra inputs are not permitted");
    }

    @Test
    void countTokensTakesTheModelFromTheBody() {
        HttpResponse<String> r = vertex(PREFIX + "anthropic/models/count-tokens:rawPredict", """
                {"anthropic_version":"vertex-2023-10-16","model":"claude-sonnet-4@20250514","messages":[{"role":"user","content":"Hello there"}]}""");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r.body()).path("input_tokens").asInt()).isPositive();
    }

    @Test
    void geminiOnVertexAnswersLikeTheDeveloperApi() {
        String body = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Hi\"}]}]}";
        HttpResponse<String> r = vertex(PREFIX + "google/models/gemini-2.5-flash:generateContent", body);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r.body()).at("/candidates/0/content/parts/0/text").asText()).startsWith("Hello from gemini-2.5-flash");
        List<Sse> chunks = sse(vertex(PREFIX + "google/models/gemini-2.5-flash:streamGenerateContent?alt=sse", body).body());
        assertThat(chunks.getLast().json().at("/candidates/0/finishReason").asText()).isEqualTo("STOP");
        assertThat(json(vertex(PREFIX + "google/models/gemini-2.5-flash:countTokens", body).body()).path("totalTokens").asInt()).isPositive();
    }

    @Test
    void textEmbeddingsByPredictCountTheirTokens() {
        HttpResponse<String> r = vertex(PREFIX + "google/models/text-embedding-005:predict", """
                {"instances":[{"content":"first text","task_type":"RETRIEVAL_QUERY"},{"content":"second"}],
                 "parameters":{"outputDimensionality":8}}""");
        JsonNode out = json(r.body());
        assertThat(out.path("predictions")).hasSize(2);
        assertThat(out.at("/predictions/0/embeddings/values")).hasSize(8);
        assertThat(out.at("/predictions/0/embeddings/statistics/token_count").asInt()).isEqualTo(3);
        assertThat(vertex(PREFIX + "google/models/gemini-embedding-001:predict",
                "{\"instances\":[{\"content\":\"a\"},{\"content\":\"b\"}]}").statusCode()).isEqualTo(400);
    }

    @Test
    void aMissingOrRefusedTokenIsUnauthenticated() {
        String body = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Hi\"}]}]}";
        String path = PREFIX + "google/models/gemini-2.5-flash:generateContent";
        HttpResponse<String> none = post(path, body);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(json(none.body()).at("/error/status").asText()).isEqualTo("UNAUTHENTICATED");
        sim.acceptVertexTokens(token -> token.equals("fresh"));
        assertThat(vertex(path, body).statusCode()).as("the static token no longer accepted").isEqualTo(401);
        assertThat(post(path, body, "authorization", "Bearer fresh").statusCode()).isEqualTo(200);
    }

    @Test
    void anotherProjectIsDeniedAndAnUnservedLocationHasNoModel() {
        String body = "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Hi\"}]}]}";
        HttpResponse<String> denied = vertex("/v1/projects/other-project/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent", body);
        assertThat(denied.statusCode()).isEqualTo(403);
        assertThat(json(denied.body()).at("/error/status").asText()).isEqualTo("PERMISSION_DENIED");
        HttpResponse<String> nowhere = vertex("/v1/projects/sim-project/locations/mars-north1/publishers/anthropic/models/claude-x:rawPredict",
                "{\"anthropic_version\":\"vertex-2023-10-16\",\"max_tokens\":8,\"messages\":[]}");
        assertThat(nowhere.statusCode()).isEqualTo(404);
        assertThat(json(nowhere.body()).at("/error/message").asText())
                .contains("projects/sim-project/locations/mars-north1/publishers/anthropic/models/claude-x");
    }

    @Test
    void quotaFaultsAreResourceExhaustedAndTheModelsOwnErrorsAreVendorAs() {
        String path = PREFIX + "anthropic/models/claude-sonnet-4@20250514:rawPredict";
        String body = "{\"anthropic_version\":\"vertex-2023-10-16\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
        sim.queueFault("vertex", "status=429;retry_after=3");
        HttpResponse<String> quota = vertex(path, body);
        assertThat(quota.statusCode()).isEqualTo(429);
        assertThat(json(quota.body()).at("/error/status").asText()).isEqualTo("RESOURCE_EXHAUSTED");
        assertThat(quota.headers().firstValue("retry-after")).hasValue("3");
        sim.queueFault("vertex", "status=529");
        HttpResponse<String> overloaded = vertex(path, body);
        assertThat(overloaded.statusCode()).isEqualTo(529);
        assertThat(json(overloaded.body()).at("/error/type").asText()).isEqualTo("overloaded_error");
        sim.queueFault("vertex", "status=429");
        assertThat(json(vertex(PREFIX + "google/models/gemini-2.5-flash:generateContent",
                "{\"contents\":[{\"role\":\"user\",\"parts\":[{\"text\":\"Hi\"}]}]}").body()).at("/error/status").asText())
                .isEqualTo("RESOURCE_EXHAUSTED");
    }
}
