package dev.modelgateway.e2e.clouds;

import com.fasterxml.jackson.databind.JsonNode;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Computer use (contract §1.5) through the clouds on vendor A's native messages path (docs/clouds.md, "Computer use"):
 * the tool reaches Bedrock's InvokeModel with its beta in the body's {@code anthropic_beta}, Vertex's rawPredict and
 * Claude Platform on AWS with the {@code anthropic-beta} header, each double refusing the tool without its beta in
 * that place, and the model's {@code tool_use} for it comes back; Converse has no computer use: a 400 naming the tool.
 */
@E2e
class ComputerUseOnCloudsTest {
    static final String BETA = "computer-use-2025-01-24";
    static final String CALL = """
            {"model":"%s","max_tokens":1024,
             "tools":[{"type":"computer_20250124","name":"computer","display_width_px":1280,"display_height_px":800}],
             "messages":[{"role":"user","content":"Open the browser [[sim:tool=computer;args={\\"action\\":\\"left_click\\",\\"coordinate\\":[640,400]}]]"}]}""";
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness h;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0, SimKeys.defaults()).await();
        Path dir = Files.createTempDirectory("computer-use");
        var account = GoogleServiceAccounts.create(dir, "gateway", sim.baseUrl() + "/oauth2/token");
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
                  gcp:
                    type: vertex
                    project: sim-project
                    location: us-east5
                    base_url: %1$s
                    google: {source: service_account, credentials_file: %2$s}
                  claude-aws:
                    type: anthropic-aws
                    region: us-west-2
                    workspace_id: wrkspc_01SimWorkspace
                    base_url: %1$s/claude-aws
                    api_key: sim-claude-aws-api-key
                models:
                  platform/vendorA-sonnet-4.5:
                    deployments:
                      - {provider: aws, model: "us.anthropic.claude-sonnet-4-5-v1:0"}
                  platform/vendorA-sonnet-4.7:
                    deployments:
                      - {provider: gcp, model: "claude-sonnet-4-7@20260101"}
                  platform/vendorA-sonnet-4.8:
                    deployments:
                      - {provider: claude-aws, model: claude-sonnet-4-8}
                  platform/vendorA-opus-4.5:
                    deployments:
                      - {provider: aws, model: "anthropic.claude-opus-4-5-v1:0", api: converse}
                """.formatted(sim.baseUrl(), account.file()));
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

    private static HttpResponse<String> computerUse(String model) {
        return h.postAuthed("/api/v1/messages", CALL.formatted(model), "anthropic-version", "2023-06-01", "anthropic-beta", BETA);
    }

    /** The model's call of the computer tool, with the arguments it was steered to. */
    private static void assertClickCalled(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode answer = Json.parseOrNull(r.body());
        assertThat(answer.path("stop_reason").asText()).isEqualTo("tool_use");
        JsonNode call = answer.path("content").get(answer.path("content").size() - 1);
        assertThat(call.path("type").asText()).isEqualTo("tool_use");
        assertThat(call.path("name").asText()).isEqualTo("computer");
        assertThat(call.path("input").path("action").asText()).isEqualTo("left_click");
    }

    @Test
    void bedrockInvokeCarriesTheBetaInTheBodysAnthropicBeta() {
        assertClickCalled(computerUse("platform/vendorA-sonnet-4.5"));
        ReceivedRequest r = last("bedrock");
        assertThat(r.path()).endsWith("/invoke");
        JsonNode body = Json.parseOrNull(r.body());
        assertThat(body.path("anthropic_beta").toString()).isEqualTo("[\"" + BETA + "\"]");
        assertThat(body.path("tools").get(0).path("type").asText()).isEqualTo("computer_20250124");
        assertThat(r.headers()).doesNotContainKey("anthropic-beta");
    }

    @Test
    void vertexRawPredictAndClaudePlatformOnAwsCarryTheBetaHeader() {
        assertClickCalled(computerUse("platform/vendorA-sonnet-4.7"));
        ReceivedRequest vertex = last("vertex");
        assertThat(vertex.path()).endsWith(":rawPredict");
        assertThat(vertex.headers()).containsEntry("anthropic-beta", BETA);
        assertThat(Json.parseOrNull(vertex.body()).path("tools").get(0).path("type").asText()).isEqualTo("computer_20250124");
        assertThat(vertex.body()).doesNotContain("anthropic_beta");

        assertClickCalled(computerUse("platform/vendorA-sonnet-4.8"));
        assertThat(last("claude-aws").headers()).containsEntry("anthropic-beta", BETA);
    }

    @Test
    void withoutItsBetaTheToolIsRefusedByTheCloud() {
        HttpResponse<String> r = h.postAuthed("/api/v1/messages", CALL.formatted("platform/vendorA-sonnet-4.7"),
                "anthropic-version", "2023-06-01");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("requires the beta '" + BETA + "'");
    }

    @Test
    void converseHasNoComputerUseAndSaysSoNamingTheTool() {
        int before = sim.received().size();
        HttpResponse<String> r = computerUse("platform/vendorA-opus-4.5");
        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).startsWith("tools: the tool type 'computer_20250124' is not available through Bedrock's Converse API")
                .contains("api: invoke");
        // refused before any call to Bedrock
        assertThat(sim.received()).hasSize(before);
    }
}
