package dev.modelgateway.e2e.clients;

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

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Claude Code and Codex really send ({@link RecordedCliRequestsTest}'s fixtures: adaptive thinking, system
 * entries in the middle of the conversation, cache markers, tool loops) replayed to vendor A's models served by
 * Bedrock's InvokeModel and by Vertex's rawPredict, as the demo serves them (docs/clouds.md, "In demo mode"); the
 * compatibility suite runs the CLIs themselves on those deployments.
 */
@E2e
class RecordedCliRequestsOnCloudsTest {
    private static final String BEDROCK = "platform/vendorA-opus-4.8";
    private static final String VERTEX = "platform/vendorA-sonnet-4.8";
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness gateway;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0, SimKeys.defaults()).await();
        Path dir = Files.createTempDirectory("cli-clouds");
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
                models:
                  %3$s:
                    deployments:
                      - {provider: aws, model: "us.anthropic.claude-opus-4-8-v1:0", capabilities: {prompt_cache: true}}
                  %4$s:
                    deployments:
                      - {provider: gcp, model: "claude-sonnet-4-8@20260101", capabilities: {prompt_cache: true}}
                """.formatted(sim.baseUrl(), account.file(), BEDROCK, VERTEX));
        gateway = GatewayHarness.builder().simulator(sim).configFile(file).start();
    }

    @AfterAll
    static void stop() {
        gateway.close();
        sim.close().await();
        vertx.close().await();
    }

    @BeforeEach
    void clean() {
        sim.clearReceived();
    }

    @Test
    void claudeCodeOnBedrock() {
        RecordedCliRequestsTest.claudeCode(gateway, BEDROCK);
        assertThat(paths("bedrock")).allMatch(p -> p.equals("/model/us.anthropic.claude-opus-4-8-v1%3A0/invoke-with-response-stream"))
                .hasSize(4);
    }

    @Test
    void claudeCodeOnVertex() {
        RecordedCliRequestsTest.claudeCode(gateway, VERTEX);
        assertThat(paths("vertex")).allMatch(p -> p.endsWith("/publishers/anthropic/models/claude-sonnet-4-8@20260101:streamRawPredict"))
                .hasSize(4);
    }

    @Test
    void codexOnBedrock() {
        RecordedCliRequestsTest.codex(gateway, BEDROCK);
        assertThat(paths("bedrock")).hasSize(3);
    }

    @Test
    void codexOnVertex() {
        RecordedCliRequestsTest.codex(gateway, VERTEX);
        assertThat(paths("vertex")).hasSize(3);
    }

    /**
     * The prompt goes to both clouds as Claude Code wrote it: its cache markers (the cache is declared), the system
     * entries in the middle of the conversation and the tools, not hoisted, dropped or re-serialised differently.
     */
    @Test
    void claudeCodesPromptReachesBothCloudsAsSent() {
        JsonNode sent = RecordedClientRequest.load("claude-code/continue-second-turn.json").body();
        assertThat(sent.toString()).contains("cache_control").contains("\"role\":\"system\"");
        for (String model : List.of(BEDROCK, VERTEX)) {
            sim.clearReceived();
            RecordedClientRequest.load("claude-code/continue-second-turn.json").replay(gateway, model);
            JsonNode received = Json.parseOrNull(sim.received().getLast().body());
            for (String field : List.of("system", "messages", "tools", "thinking")) {
                assertThat(received.get(field)).as(model + ": " + field).isEqualTo(sent.get(field));
            }
        }
    }

    /** The paths the simulator's double for {@code vendor} received; no request went to vendor A's own API. */
    private static List<String> paths(String vendor) {
        assertThat(sim.received()).noneMatch(r -> r.vendor().equals("anthropic"));
        return sim.received().stream().filter(r -> r.vendor().equals(vendor)).map(ReceivedRequest::path).toList();
    }
}
