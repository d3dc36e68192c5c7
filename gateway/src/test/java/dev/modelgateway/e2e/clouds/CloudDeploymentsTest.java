package dev.modelgateway.e2e.clouds;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.GoogleServiceAccounts;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Public models served by Bedrock (InvokeModel, Converse, a Bedrock API key) and Vertex AI (vendor A's rawPredict,
 * Gemini), driven by the official SDKs through the gateway, against the simulator's doubles, which verify SigV4 and
 * the Google access tokens their own token endpoint issued (docs/clouds.md).
 */
@E2e
class CloudDeploymentsTest {
    static final String INVOKE_MODEL = "us.anthropic.claude-sonnet-4-5-v1:0";
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness h;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0, SimKeys.defaults()).await();
        Path dir = Files.createTempDirectory("clouds");
        var account = GoogleServiceAccounts.create(dir, "gateway", sim.baseUrl() + "/oauth2/token");
        // a service account the token endpoint does not know: its deployment's credentials cannot be had
        var untrusted = GoogleServiceAccounts.create(dir, "untrusted", sim.baseUrl() + "/oauth2/token");
        sim.googleOAuth().trustServiceAccount(account.clientEmail(), account.publicKey());
        sim.acceptVertexTokens(sim.googleTokens());
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, GatewayHarness.simVendors(sim) + """
                providers:
                  aws:
                    type: bedrock
                    region: us-east-1
                    base_url: %1$s
                    aws: {source: static, access_key_id: AKIDSIMBEDROCK, secret_access_key: sim-bedrock-secret}
                  aws-key: {type: bedrock, region: us-east-1, base_url: %1$s, api_key: sim-bedrock-api-key}
                  gcp:
                    type: vertex
                    project: sim-project
                    location: us-east5
                    base_url: %1$s
                    google: {source: service_account, credentials_file: %2$s}
                  gcp-untrusted:
                    type: vertex
                    project: sim-project
                    location: us-east5
                    base_url: %1$s
                    google: {source: service_account, credentials_file: %4$s}
                models:
                  platform/vendorA-sonnet-4.5:
                    deployments:
                      - {provider: aws, model: "%3$s", capabilities: {prompt_cache: true}}
                  platform/vendorA-sonnet-4.8:
                    deployments:
                      - {provider: aws-key, model: "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/nocache"}
                  platform/vendorA-opus-4.5:
                    deployments:
                      - {provider: aws, model: "anthropic.claude-opus-4-5-v1:0", api: converse}
                  platform/vendorA-sonnet-4.7:
                    deployments:
                      - {provider: gcp, model: "claude-sonnet-4-7@20260101"}
                  platform/vendorA-opus-4.7:
                    deployments:
                      - {provider: aws, model: "anthropic.claude-opus-4-7-v1:0", weight: 1000000}
                      - {provider: gcp, model: "claude-opus-4-7@20260101", weight: 1}
                  platform/vendorA-opus-4.8:
                    deployments:
                      - {provider: aws, model: "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/cached",
                         capabilities: {prompt_cache: true, base_model: "anthropic.claude-opus-4-8-v1:0"}}
                  platform/vendorA-sonnet-5:
                    deployments:
                      - {provider: gcp-untrusted, model: "claude-sonnet-5@20260101", weight: 1000000}
                      - {provider: aws, model: "anthropic.claude-sonnet-5-v1:0", weight: 1}
                  vendorC-flash-3:
                    deployments:
                      - {provider: gcp, model: "gemini-3-flash"}
                """.formatted(sim.baseUrl(), account.file(), INVOKE_MODEL, untrusted.file()));
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
    }

    @AfterAll
    static void stop() {
        h.close();
        sim.close().await();
        vertx.close().await();
    }

    @BeforeEach
    void clean() {
        sim.clearReceived();
    }

    static MessageCreateParams hello(String model) {
        return MessageCreateParams.builder().model(model).maxTokens(1024).addUserMessage("Hello gateway").build();
    }

    private static ReceivedRequest last(String vendor) {
        return sim.received().stream().filter(r -> r.vendor().equals(vendor)).reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void vendorAsMessagesGoToInvokeModelSignedWithTheBodyBedrockTakes() {
        AnthropicClient client = h.anthropic();
        Message m = client.messages().create(hello("platform/vendorA-sonnet-4.5"));
        assertThat(m.content().getLast().asText().text()).endsWith("You said: Hello gateway");
        ReceivedRequest r = last("bedrock");
        assertThat(r.path()).isEqualTo("/model/us.anthropic.claude-sonnet-4-5-v1%3A0/invoke");
        assertThat(r.headers().get("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=AKIDSIMBEDROCK/");
        JsonNode body = Json.parseOrNull(r.body());
        assertThat(body.path("anthropic_version").asText()).isEqualTo("bedrock-2023-05-31");
        assertThat(body.has("model")).isFalse();

        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(hello("platform/vendorA-sonnet-4.5"))) {
            s.stream().forEach(acc::accumulate);
        }
        assertThat(acc.message().content().getLast().asText().text()).endsWith("You said: Hello gateway");
        assertThat(acc.message().usage().outputTokens()).isPositive();
        assertThat(last("bedrock").path()).endsWith("/invoke-with-response-stream");
    }

    @Test
    void chatCompletionsAreTranslatedOntoInvokeAndConverse() {
        OpenAIClient client = h.openai();
        for (String model : List.of("platform/vendorA-sonnet-4.5", "platform/vendorA-opus-4.5")) {
            ChatCompletion c = client.chat().completions().create(ChatCompletionCreateParams.builder().model(model)
                    .addUserMessage("Hello gateway").build());
            assertThat(c.choices().getFirst().message().content().orElseThrow()).endsWith("You said: Hello gateway");
            assertThat(c.usage().orElseThrow().completionTokens()).isPositive();
        }
        assertThat(sim.received().stream().filter(r -> r.vendor().equals("bedrock")).map(ReceivedRequest::path))
                .containsExactly("/model/us.anthropic.claude-sonnet-4-5-v1%3A0/invoke", "/model/anthropic.claude-opus-4-5-v1%3A0/converse");
    }

    @Test
    void messagesStreamOverConverseAndBedrockApiKeys() {
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = h.anthropic().messages().createStreaming(hello("platform/vendorA-opus-4.5"))) {
            s.stream().forEach(acc::accumulate);
        }
        assertThat(acc.message().content().getLast().asText().text()).endsWith("You said: Hello gateway");
        assertThat(last("bedrock").path()).isEqualTo("/model/anthropic.claude-opus-4-5-v1%3A0/converse-stream");

        Message viaKey = h.anthropic().messages().create(hello("platform/vendorA-sonnet-4.8"));
        assertThat(viaKey.content().getLast().asText().text()).endsWith("You said: Hello gateway");
        assertThat(last("bedrock").headers().get("authorization")).isEqualTo("Bearer sim-bedrock-api-key");
    }

    @Test
    void vertexServesVendorAByRawPredictAndGeminiWithTheTokensOfItsOwnEndpoint() {
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = h.anthropic().messages().createStreaming(hello("platform/vendorA-sonnet-4.7"))) {
            s.stream().forEach(acc::accumulate);
        }
        assertThat(acc.message().content().getLast().asText().text()).endsWith("You said: Hello gateway");
        ReceivedRequest r = last("vertex");
        assertThat(r.path()).isEqualTo("/v1/projects/sim-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-7@20260101:streamRawPredict");
        assertThat(Json.parseOrNull(r.body()).path("anthropic_version").asText()).isEqualTo("vertex-2023-10-16");
        assertThat(sim.googleTokens().valid(r.headers().get("authorization").substring("Bearer ".length()))).isTrue();

        ChatCompletion c = h.openai().chat().completions().create(ChatCompletionCreateParams.builder().model("vendorC-flash-3")
                .addUserMessage("Hello gateway").build());
        assertThat(c.choices().getFirst().message().content().orElseThrow()).contains("Hello gateway");
        assertThat(last("vertex").path()).endsWith("/publishers/google/models/gemini-3-flash:generateContent");
    }

    @Test
    void aDeploymentWhoseCredentialsCannotBeHadIsNotReadyAndSkipped() {
        for (int i = 0; i < 3; i++) {
            Message m = h.anthropic().messages().create(hello("platform/vendorA-sonnet-5"));
            assertThat(m.content().getLast().asText().text()).endsWith("You said: Hello gateway");
        }
        assertThat(sim.received().stream().filter(r -> r.vendor().equals("vertex"))).isEmpty();
        JsonNode config = Json.parseOrNull(h.getAuthed("/api/v1/admin/config").body());
        JsonNode failing = config.at("/models/platform~1vendorA-sonnet-5/deployments/0");
        assertThat(failing.path("provider").asText()).isEqualTo("gcp-untrusted");
        assertThat(failing.path("state").asText()).isEqualTo("credentials_failing");
        assertThat(failing.path("credentials_problem").asText()).contains("untrusted.json", "account not found")
                .doesNotContain("PRIVATE KEY");
        assertThat(config.at("/models/platform~1vendorA-sonnet-5/deployments/1/state").asText()).isEqualTo("ready");
        // the providers say where their calls go and which identity signs them, never a secret
        assertThat(config.at("/providers/aws/region").asText()).isEqualTo("us-east-1");
        assertThat(config.at("/providers/aws/credentials").asText()).contains("AKIDSIMBEDROCK").doesNotContain("sim-bedrock-secret");
        assertThat(config.at("/providers/gcp/project").asText()).isEqualTo("sim-project");
        assertThat(config.at("/providers/aws-key/keys/0/key").asText()).doesNotContain("sim-bedrock-api-key");
    }

    @Test
    void aRevokedTokenIsRefreshedOnceForEveryCallThatSawItRefused() {
        h.anthropic().messages().create(hello("platform/vendorA-sonnet-4.7"));
        String token = last("vertex").headers().get("authorization").substring("Bearer ".length());
        int issued = sim.googleTokens().issued();
        sim.googleTokens().revoke(token);
        List<CompletableFuture<Message>> calls = IntStream.range(0, 8)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> h.anthropic().messages().create(hello("platform/vendorA-sonnet-4.7"))))
                .toList();
        calls.forEach(f -> assertThat(f.join().content().getLast().asText().text()).endsWith("You said: Hello gateway"));
        assertThat(sim.googleTokens().issued()).isEqualTo(issued + 1);
    }

    @Test
    void anExceptionFrameBeforeAnyOutputFailsOverAndOneAfterEndsTheStreamWithAnError() {
        // the first deployment (weight 1000000) is Bedrock's: its stream throttles before its first event
        sim.queueFault("bedrock", "exception=throttlingException;error_after=0");
        HttpResponse<String> over = h.postAuthed("/api/v1/messages", """
                {"model":"platform/vendorA-opus-4.7","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"Hello gateway"}]}""",
                "anthropic-version", "2023-06-01");
        assertThat(over.statusCode()).isEqualTo(200);
        // served whole by the Vertex deployment, the caller never seeing Bedrock's throttled stream
        assertThat(over.body()).contains("\"model\":\"claude-opus-4-7@20260101\"").contains("event: message_stop")
                .doesNotContain("anthropic.claude-opus-4-7-v1:0");
        assertThat(over.headers().firstValue("x-platform-attempts")).hasValue("2");
        assertThat(last("vertex").path()).endsWith(":streamRawPredict");

        sim.queueFault("bedrock", "exception=modelStreamErrorException;error_after=3");
        HttpResponse<String> cut = h.postAuthed("/api/v1/messages", """
                {"model":"platform/vendorA-sonnet-4.5","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"Hello gateway"}]}""",
                "anthropic-version", "2023-06-01");
        assertThat(cut.statusCode()).isEqualTo(200);
        assertThat(cut.body()).contains("event: message_start").contains("event: error").doesNotContain("event: message_stop");
    }

    @Test
    void cacheMarkersGoOnlyWhereCachingIsDeclaredAndCacheReadsAreReported() {
        String cached = """
                {"model":"%s","max_tokens":100,
                 "system":[{"type":"text","text":"%s","cache_control":{"type":"ephemeral"}}],
                 "messages":[{"role":"user","content":"Hello gateway"}]}""";
        String longSystem = "You are a careful assistant. ".repeat(200);
        h.postAuthed("/api/v1/messages", cached.formatted("platform/vendorA-sonnet-4.5", longSystem), "anthropic-version", "2023-06-01");
        HttpResponse<String> second = h.postAuthed("/api/v1/messages", cached.formatted("platform/vendorA-sonnet-4.5", longSystem),
                "anthropic-version", "2023-06-01");
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(Json.parseOrNull(second.body()).at("/usage/cache_read_input_tokens").asLong()).isPositive();
        assertThat(last("bedrock").body()).contains("cache_control");

        // an application profile's ARN that declares prompt caching keeps its markers (the id says nothing of caching)
        h.postAuthed("/api/v1/messages", cached.formatted("platform/vendorA-opus-4.8", longSystem), "anthropic-version", "2023-06-01");
        HttpResponse<String> arn = h.postAuthed("/api/v1/messages", cached.formatted("platform/vendorA-opus-4.8", longSystem),
                "anthropic-version", "2023-06-01");
        assertThat(arn.statusCode()).isEqualTo(200);
        assertThat(last("bedrock").path()).startsWith("/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fcached/");
        assertThat(last("bedrock").body()).contains("cache_control");
        assertThat(Json.parseOrNull(arn.body()).at("/usage/cache_read_input_tokens").asLong()).isPositive();

        // an application profile that declares nothing: the markers are dropped, so the model does not refuse them
        sim.bedrockWithoutCaching("arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/nocache");
        HttpResponse<String> dropped = h.postAuthed("/api/v1/messages", cached.formatted("platform/vendorA-sonnet-4.8", longSystem),
                "anthropic-version", "2023-06-01");
        assertThat(dropped.statusCode()).isEqualTo(200);
        assertThat(last("bedrock").body()).doesNotContain("cache_control");
        assertThat(dropped.headers().firstValue("x-platform-warnings").orElse("")).contains("cache_control dropped");
    }
}
