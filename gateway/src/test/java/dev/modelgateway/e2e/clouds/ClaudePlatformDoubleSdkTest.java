package dev.modelgateway.e2e.clouds;

import com.anthropic.aws.backends.AwsBackend;
import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.errors.PermissionDeniedException;
import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The simulator's Claude Platform on AWS double read by Anthropic's own client for it ({@code AwsBackend},
 * anthropic-java-aws): what that client sends (SigV4 for {@code aws-external-anthropic}, or a workspace API key, and
 * the workspace header) is accepted, so the double checks what the service documents and nothing the official client
 * does not send; a wrong secret and a workspace not granted are refused (another service's signature: vendor-sim's
 * AwsHostedApisTest).
 */
@E2e
class ClaudePlatformDoubleSdkTest {
    static Vertx vertx;
    static VendorSimulator sim;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0, SimKeys.defaults()).await();
    }

    @AfterAll
    static void stop() {
        sim.close().await();
        vertx.close().await();
    }

    private static AnthropicClient client(AwsBackend.Builder backend) {
        return AnthropicOkHttpClient.builder().backend(backend.region(Region.US_WEST_2).baseUrl(sim.baseUrl() + "/claude-aws").build())
                .maxRetries(0).build();
    }

    private static AwsBackend.Builder signed(String secret, String workspace) {
        return AwsBackend.builder().awsCredentials(AwsBasicCredentials.create("AKIDSIMBEDROCK", secret)).workspaceId(workspace);
    }

    private static MessageCreateParams hello() {
        return MessageCreateParams.builder().model("claude-sonnet-4-8").maxTokens(256).addUserMessage("Hello platform").build();
    }

    private static ReceivedRequest last() {
        return sim.received().stream().filter(r -> r.vendor().equals("claude-aws")).reduce((a, b) -> b).orElseThrow();
    }

    @Test
    void theOfficialClientsSignedCallsAreAnswered() {
        AnthropicClient client = client(signed("sim-bedrock-secret", "wrkspc_01SimWorkspace"));
        assertThat(client.messages().create(hello()).content().getLast().asText().text())
                .isEqualTo("Hello from claude-sonnet-4-8. You said: Hello platform");
        assertThat(last().headers().get("authorization")).contains("/us-west-2/aws-external-anthropic/aws4_request");

        MessageAccumulator acc = MessageAccumulator.create();
        try (StreamResponse<RawMessageStreamEvent> s = client.messages().createStreaming(hello())) {
            s.stream().forEach(acc::accumulate);
        }
        assertThat(acc.message().content().getLast().asText().text()).endsWith("You said: Hello platform");
    }

    @Test
    void theOfficialClientsWorkspaceApiKeyIsAnswered() {
        AnthropicClient client = client(AwsBackend.builder().apiKey("sim-claude-aws-api-key").workspaceId("wrkspc_01SimWorkspace"));
        assertThat(client.messages().create(hello()).content().getLast().asText().text()).endsWith("You said: Hello platform");
        assertThat(last().headers()).containsEntry("authorization", "Bearer sim-claude-aws-api-key");
    }

    @Test
    void aWrongSecretAWorkspaceNotGrantedAndAMissingWorkspaceAreRefused() {
        assertThatThrownBy(() -> client(signed("not-the-secret", "wrkspc_01SimWorkspace")).messages().create(hello()))
                .isInstanceOf(PermissionDeniedException.class).hasMessageContaining("signature we calculated does not match");
        assertThatThrownBy(() -> client(signed("sim-bedrock-secret", "wrkspc_01Other")).messages().create(hello()))
                .isInstanceOf(PermissionDeniedException.class)
                .hasMessageContaining("aws-external-anthropic:CreateInference on resource: arn:aws:aws-external-anthropic:us-west-2:");
        // the official client will not even be built without one (the double answers a request without it with a 400)
        assertThatThrownBy(() -> client(AwsBackend.builder().awsCredentials(AwsBasicCredentials.create("AKIDSIMBEDROCK",
                "sim-bedrock-secret")))).isInstanceOf(IllegalStateException.class).hasMessageContaining("No workspace ID");
    }
}
