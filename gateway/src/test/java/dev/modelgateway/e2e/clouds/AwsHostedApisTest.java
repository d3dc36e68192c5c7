package dev.modelgateway.e2e.clouds;

import com.anthropic.client.AnthropicClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.openai.client.OpenAIClient;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AWS serving the vendors' own APIs (docs/clouds.md): vendor A's messages API on Claude Platform on AWS (SigV4 for
 * {@code aws-external-anthropic}, or a workspace API key, and the workspace header) and vendor B's chat completions and
 * Responses on Bedrock's OpenAI-compatible endpoint (SigV4 for {@code bedrock}, or a Bedrock API key), driven by the
 * official SDKs through the gateway against the simulator's doubles, which verify the signatures and the workspace.
 */
@E2e
class AwsHostedApisTest {
    static final String WORKSPACE = "wrkspc_01SimWorkspace";
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness h;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0, SimKeys.defaults()).await();
        Path file = Files.createTempDirectory("aws-hosted").resolve("gateway.yaml");
        Files.writeString(file, GatewayHarness.simVendors(sim) + """
                providers:
                  claude-aws:
                    type: anthropic-aws
                    region: us-west-2
                    workspace_id: %2$s
                    base_url: %1$s/claude-aws
                    aws: {source: static, access_key_id: AKIDSIMBEDROCK, secret_access_key: sim-bedrock-secret}
                  claude-aws-key:
                    type: anthropic-aws
                    region: us-west-2
                    workspace_id: %2$s
                    base_url: %1$s/claude-aws
                    api_key: sim-claude-aws-api-key
                  claude-aws-elsewhere:
                    type: anthropic-aws
                    region: us-west-2
                    workspace_id: wrkspc_01NotOurs
                    base_url: %1$s/claude-aws
                    aws: {source: static, access_key_id: AKIDSIMBEDROCK, secret_access_key: sim-bedrock-secret}
                  aws-openai:
                    type: bedrock-openai
                    region: us-east-1
                    base_url: %1$s/bedrock-openai/openai/v1
                    aws: {source: static, access_key_id: AKIDSIMBEDROCK, secret_access_key: sim-bedrock-secret}
                  aws-openai-key: {type: bedrock-openai, region: us-east-1, base_url: %1$s/bedrock-openai/openai/v1, api_key: sim-bedrock-api-key}
                models:
                  platform/vendorA-sonnet-4.8:
                    deployments:
                      - {provider: claude-aws, model: claude-sonnet-4-8, capabilities: {prompt_cache: true}}
                  platform/vendorA-sonnet-4.7:
                    deployments:
                      - {provider: claude-aws-key, model: claude-sonnet-4-7}
                  platform/vendorA-opus-4.7:
                    deployments:
                      - {provider: claude-aws-elsewhere, model: claude-opus-4-7}
                  platform/vendorB-5.5:
                    deployments:
                      - {provider: aws-openai, model: openai.gpt-5.5}
                  platform/vendorB-5.4:
                    deployments:
                      - {provider: aws-openai-key, model: openai.gpt-5.4}
                """.formatted(sim.baseUrl(), WORKSPACE));
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

    private static ReceivedRequest last(String vendor) {
        return sim.received().stream().filter(r -> r.vendor().equals(vendor)).reduce((a, b) -> b).orElseThrow();
    }

    private static MessageCreateParams hello(String model) {
        return MessageCreateParams.builder().model(model).maxTokens(1024).addUserMessage("Hello gateway").build();
    }

    @Test
    void messagesReachClaudePlatformOnAwsSignedForItsServiceWithTheWorkspace() {
        AnthropicClient client = h.anthropic();
        Message m = client.messages().create(hello("platform/vendorA-sonnet-4.8"));
        assertThat(m.content().getLast().asText().text()).isEqualTo("Hello from claude-sonnet-4-8. You said: Hello gateway");
        ReceivedRequest r = last("claude-aws");
        assertThat(r.path()).isEqualTo("/claude-aws/v1/messages");
        // the double recomputed this signature with AWS's signer before answering
        assertThat(r.headers().get("authorization"))
                .matches("AWS4-HMAC-SHA256 Credential=AKIDSIMBEDROCK/\\d{8}/us-west-2/aws-external-anthropic/aws4_request, .*");
        assertThat(r.headers().get("authorization")).contains("anthropic-workspace-id");
        assertThat(r.headers()).containsEntry("anthropic-workspace-id", WORKSPACE).containsEntry("anthropic-version", "2023-06-01")
                .doesNotContainKey("x-api-key");
        // vendor A's own body: the model stays in it, nothing Bedrock-like added
        assertThat(Json.parseOrNull(r.body()).path("model").asText()).isEqualTo("claude-sonnet-4-8");
        assertThat(r.body()).doesNotContain("anthropic_version");

        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(hello("platform/vendorA-sonnet-4.8"))) {
            s.stream().forEach(acc::accumulate);
        }
        assertThat(acc.message().content().getLast().asText().text()).endsWith("You said: Hello gateway");
        assertThat(acc.message().usage().outputTokens()).isPositive();
        assertThat(Json.parseOrNull(last("claude-aws").body()).path("stream").asBoolean()).isTrue();
    }

    @Test
    void aCachedPromptOnClaudePlatformKeepsItsMarkersAndReportsCacheReads() {
        String cached = """
                {"model":"%s","max_tokens":100,
                 "system":[{"type":"text","text":"%s","cache_control":{"type":"ephemeral"}}],
                 "messages":[{"role":"user","content":"Hello gateway"}]}""";
        String system = "You are a careful assistant. ".repeat(200);
        h.postAuthed("/api/v1/messages", cached.formatted("platform/vendorA-sonnet-4.8", system), "anthropic-version", "2023-06-01");
        HttpResponse<String> second = h.postAuthed("/api/v1/messages", cached.formatted("platform/vendorA-sonnet-4.8", system),
                "anthropic-version", "2023-06-01");
        assertThat(second.statusCode()).isEqualTo(200);
        assertThat(Json.parseOrNull(second.body()).at("/usage/cache_read_input_tokens").asLong()).isPositive();
        assertThat(last("claude-aws").body()).contains("cache_control");

        // one that declares nothing keeps them: Claude Platform on AWS is vendor A's own API (docs/clouds.md, "Capabilities")
        HttpResponse<String> undeclared = h.postAuthed("/api/v1/messages", cached.formatted("platform/vendorA-sonnet-4.7", system),
                "anthropic-version", "2023-06-01");
        assertThat(undeclared.statusCode()).isEqualTo(200);
        assertThat(last("claude-aws").body()).contains("cache_control");
    }

    @Test
    void aWorkspaceApiKeyGoesAsABearerTokenUnsigned() {
        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = h.anthropic().messages().createStreaming(hello("platform/vendorA-sonnet-4.7"))) {
            s.stream().forEach(acc::accumulate);
        }
        assertThat(acc.message().content().getLast().asText().text()).endsWith("You said: Hello gateway");
        ReceivedRequest r = last("claude-aws");
        assertThat(r.headers()).containsEntry("authorization", "Bearer sim-claude-aws-api-key")
                .containsEntry("anthropic-workspace-id", WORKSPACE).doesNotContainKey("x-amz-date");
    }

    @Test
    void aWorkspaceTheAccountHasNotGotIsTheOperatorsCredentialRefusedNotTheCallers() {
        HttpResponse<String> r = h.postAuthed("/api/v1/messages", """
                {"model":"platform/vendorA-opus-4.7","max_tokens":100,"messages":[{"role":"user","content":"Hello gateway"}]}""",
                "anthropic-version", "2023-06-01");
        // the double refused the workspace with a 403, as IAM refuses CreateInference on a workspace not granted: the
        // operator's configuration, so the caller must not read it as its own key refused
        assertThat(last("claude-aws").headers()).containsEntry("anthropic-workspace-id", "wrkspc_01NotOurs");
        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(r.body()).contains("refused the gateway's credential (HTTP 403)");
    }

    @Test
    void chatCompletionsReachBedrocksOpenAiEndpointSignedForBedrock() {
        OpenAIClient client = h.openai();
        ChatCompletionCreateParams params = ChatCompletionCreateParams.builder().model("platform/vendorB-5.5")
                .addUserMessage("Hello gateway").build();
        ChatCompletion c = client.chat().completions().create(params);
        assertThat(c.choices().getFirst().message().content().orElseThrow()).isEqualTo("Hello from openai.gpt-5.5. You said: Hello gateway");
        assertThat(c.usage().orElseThrow().completionTokens()).isPositive();
        ReceivedRequest r = last("bedrock-openai");
        assertThat(r.path()).isEqualTo("/bedrock-openai/openai/v1/chat/completions");
        assertThat(r.headers().get("authorization"))
                .matches("AWS4-HMAC-SHA256 Credential=AKIDSIMBEDROCK/\\d{8}/us-east-1/bedrock/aws4_request, .*");
        assertThat(Json.parseOrNull(r.body()).path("model").asText()).isEqualTo("openai.gpt-5.5");

        StringBuilder text = new StringBuilder();
        try (com.openai.core.http.StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(params)) {
            s.stream().forEach(chunk -> chunk.choices().forEach(ch -> ch.delta().content().ifPresent(text::append)));
        }
        assertThat(text.toString()).isEqualTo("Hello from openai.gpt-5.5. You said: Hello gateway");
        assertThat(Json.parseOrNull(last("bedrock-openai").body()).path("stream").asBoolean()).isTrue();
    }

    @Test
    void aMessagesCallerReachesVendorBOnBedrockTranslatedAndSigned() {
        Message m = h.anthropic().messages().create(hello("platform/vendorB-5.5"));
        assertThat(m.content().getLast().asText().text()).isEqualTo("Hello from openai.gpt-5.5. You said: Hello gateway");
        ReceivedRequest r = last("bedrock-openai");
        assertThat(r.path()).isEqualTo("/bedrock-openai/openai/v1/chat/completions");
        assertThat(r.headers().get("authorization")).contains("/us-east-1/bedrock/aws4_request");
    }

    @Test
    void responsesReachBedrocksOpenAiEndpointWithABedrockApiKey() {
        Response r = h.openai().responses().create(ResponseCreateParams.builder().model("platform/vendorB-5.4")
                .input("Hello gateway").build());
        assertThat(r.output().getLast().asMessage().content().getFirst().asOutputText().text()).isEqualTo("Hello from openai.gpt-5.4. You said: Hello gateway");
        ReceivedRequest sent = last("bedrock-openai");
        assertThat(sent.path()).isEqualTo("/bedrock-openai/openai/v1/responses");
        assertThat(sent.headers()).containsEntry("authorization", "Bearer sim-bedrock-api-key");
    }
}
