package dev.modelgateway.e2e.routing;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code routing.cooldown} from the configuration file reaches the circuit breakers, at start and after a reload, and
 * a rate-limited deployment that shares its model is cooled for the vendor's {@code retry-after}. The breakers' clock
 * is a {@link TestClock}: a cooldown ends when the test advances it.
 */
@E2e
class ConfiguredCooldownTest {
    final TestClock clock = new TestClock();
    Vertx vertx;
    VendorSimulator sim;
    Path file;
    GatewayHarness h;

    String config(String cooldown) {
        String base = sim.baseUrl();
        return GatewayHarness.simVendors(sim) + """
                providers:
                  azure-eu:
                    type: azure-openai
                    base_url: %s/azure
                    api_version: 2024-10-21
                    api_key: %s
                  vllm:
                    type: openai-compatible
                    base_url: %s/compat/v1
                models:
                  team/chat:
                    kind: chat
                    context_window: 128000
                    max_output_tokens: 16000
                    capabilities: [chat, tools]
                    price: {input: 1.00, output: 2.00}
                    deployments:
                      - {provider: azure-eu, model: gpt-4o-eu, weight: 3}
                      - {provider: vllm, model: llama-3.3-70b, weight: 1}
                routing:
                  cooldown: %s
                """.formatted(base, SimKeys.AZURE, base, cooldown);
    }

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, config("{failures: 4, shared_failures: 2, seconds: 20}"));
        h = GatewayHarness.builder().simulator(sim).configFile(file).clock(clock).start();
    }

    @AfterEach
    void stop() {
        h.close();
        sim.close().await();
        vertx.close().await();
    }

    long count(String vendor) {
        return sim.received().stream().map(ReceivedRequest::vendor).filter(vendor::equals).count();
    }

    int chat(String model, String options) {
        return h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + model + "\",\"platform_options\":" + options
                + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").statusCode();
    }

    /** Whether vendor B's model, alone on its deployment, is cooling: a call with a fallback sends vendor B nothing. */
    boolean vendorBCooling() {
        long before = count("openai");
        var r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":"
                + "{\"max_retries\":1,\"fallbacks\":[\"vendorA-sonnet-5\"]},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(r.statusCode()).isEqualTo(200);
        return count("openai") == before;
    }

    @Test
    void theFilesFailuresAndSecondsOpenTheBreakerAtStartAndAfterAReload() throws Exception {
        sim.queueFault("openai", "status=500;times=4");
        assertThat(chat("platform/vendorB-5.5", "{\"max_retries\":3}")).isEqualTo(502);
        assertThat(vendorBCooling()).as("open after routing.cooldown.failures = 4, not the default 10").isTrue();
        clock.advanceMillis(19_999);
        assertThat(vendorBCooling()).as("1 ms before routing.cooldown.seconds = 20 end").isTrue();
        clock.advanceMillis(1);
        assertThat(vendorBCooling()).as("probed back after 20 s").isFalse();

        Files.writeString(file, config("{failures: 2, shared_failures: 2, seconds: 5}"));
        assertThat(h.postAuthed("/api/v1/admin/reload", "").statusCode()).isEqualTo(200);
        sim.queueFault("openai", "status=500;times=2");
        assertThat(chat("platform/vendorB-5.5", "{\"max_retries\":1}")).isEqualTo(502);
        assertThat(vendorBCooling()).as("open after the reloaded failures = 2").isTrue();
        clock.advanceMillis(4_999);
        assertThat(vendorBCooling()).as("1 ms before the reloaded 5 s end").isTrue();
        clock.advanceMillis(1);
        assertThat(vendorBCooling()).isFalse();
    }

    @Test
    void aRateLimitedSharedDeploymentCoolsForTheVendorsRetryAfter() {
        sim.queueFault("azure", "status=429;retry_after=7;times=1");
        // the 429 is retried on the other deployment at once; the Azure one is out of rotation
        Eventually.until("a call sent to the Azure deployment", () -> {
            assertThat(chat("team/chat", "{\"max_retries\":2}")).isEqualTo(200);
            return count("azure") > 0;
        });
        sim.clearReceived();
        for (int i = 0; i < 8; i++) assertThat(chat("team/chat", "{\"max_retries\":2}")).isEqualTo(200);
        assertThat(count("azure")).as("cooling").isZero();
        clock.advanceMillis(6_999);
        for (int i = 0; i < 8; i++) assertThat(chat("team/chat", "{\"max_retries\":2}")).isEqualTo(200);
        assertThat(count("azure")).as("1 ms before the vendor's retry-after of 7 s ends").isZero();
        clock.advanceMillis(1);
        for (int i = 0; i < 8; i++) assertThat(chat("team/chat", "{\"max_retries\":2}")).isEqualTo(200);
        assertThat(count("azure")).as("back in rotation after 7 s, not the 20 s of routing.cooldown.seconds").isPositive();
    }
}
