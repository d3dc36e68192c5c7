package dev.modelgateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.json.Json;
import dev.modelgateway.server.Gateway;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./gw demo}'s configuration, as {@link Demo#run} builds it, in front of the simulator: the two cloud-served
 * models answer through the Bedrock double (SigV4 with its key pair) and the Vertex double (a token its own endpoint
 * issued to the service account made at start).
 */
@E2e
class DemoCloudsOnSimulatorTest {
    @TempDir
    static Path dataDir;
    static Vertx vertx;
    static VendorSimulator sim;
    static Gateway gateway;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0, SimKeys.defaults()).await();
        GatewayConfig serve = new ConfigLoader(Map.of("GATEWAY_SERVER_PORT", "0", "GATEWAY_SERVER_DATA_DIR", dataDir.toString())::get)
                .load(null);
        GatewayConfig config = Demo.config(serve, sim.baseUrl(), SimKeys.defaults()).withRouting(Demo.clouds(sim, dataDir));
        gateway = Gateway.start(vertx, config, 1).await();
    }

    @AfterAll
    static void stop() {
        gateway.stop().await();
        sim.close().await();
        vertx.close().await();
    }

    @Test
    void bedrockServesOpusSignedWithTheSimulatorsKeyPair() throws Exception {
        assertThat(hello(DemoClouds.BEDROCK_MODEL)).isEqualTo("Hello from " + DemoClouds.BEDROCK_UPSTREAM + ". You said: Hello!");
        ReceivedRequest r = last("bedrock");
        assertThat(r.path()).isEqualTo("/model/us.anthropic.claude-opus-4-8-v1%3A0/invoke");
        assertThat(r.headers().get("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=AKIDSIMBEDROCK/");
    }

    @Test
    void vertexServesSonnetWithTheDemoServiceAccountsToken() throws Exception {
        assertThat(hello(DemoClouds.VERTEX_MODEL)).isEqualTo("Hello from " + DemoClouds.VERTEX_UPSTREAM + ". You said: Hello!");
        ReceivedRequest r = last("vertex");
        assertThat(r.path()).endsWith("/projects/sim-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-8@20260101:rawPredict");
        String token = r.headers().get("authorization").substring("Bearer ".length());
        assertThat(sim.googleTokens().subjectOf(token)).isEqualTo(DemoServiceAccount.CLIENT_EMAIL);
    }

    private static String hello(String model) throws Exception {
        HttpResponse<String> r;
        try (HttpClient client = HttpClient.newHttpClient()) {
            r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/messages"))
                    .header("authorization", "Bearer " + Demo.DEMO_KEY).header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("""
                            {"model":"%s","max_tokens":256,"messages":[{"role":"user","content":"Hello!"}]}""".formatted(model)))
                    .build(), HttpResponse.BodyHandlers.ofString());
        }
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode m = Json.parseOrNull(r.body());
        return m.path("content").get(m.path("content").size() - 1).path("text").asText();
    }

    private static ReceivedRequest last(String vendor) {
        return sim.received().stream().filter(r -> r.vendor().equals(vendor)).reduce((a, b) -> b).orElseThrow();
    }
}
