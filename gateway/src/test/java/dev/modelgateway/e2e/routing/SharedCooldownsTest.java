package dev.modelgateway.e2e.routing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances sharing one Redis agree on cooldowns: a deployment cooled by the failures one instance saw is out of
 * rotation on the other too, which then sends it nothing.
 */
@E2e
@ExternalStores
class SharedCooldownsTest {
    static final Duration COOLDOWN = Duration.ofSeconds(20);
    Vertx vertx;
    VendorSimulator sim;
    SharedStores stores;
    GatewayHarness a;
    GatewayHarness b;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, DeploymentsTest.config(sim));
        stores = new SharedStores();
        CircuitBreaker.Thresholds thresholds = new CircuitBreaker.Thresholds(3, COOLDOWN);
        a = stores.gateway().simulator(sim).configFile(file).breaker(thresholds).start();
        b = stores.gateway().simulator(sim).configFile(file).breaker(thresholds).start();
    }

    @AfterEach
    void stop() throws Exception {
        if (b != null) b.close();
        if (a != null) a.close();
        stores.close();
        sim.close().await();
        vertx.close().await();
    }

    long azure() {
        return sim.received().stream().map(ReceivedRequest::vendor).filter("azure"::equals).count();
    }

    String azureState(GatewayHarness h) {
        JsonNode c = Json.parseOrNull(h.getAuthed("/api/v1/admin/config").body());
        return c.at("/models/team~1chat/deployments/0/state").asText();
    }

    @Test
    void aDeploymentCooledOnOneInstanceIsCooledOnTheOther() throws Exception {
        sim.queueFault("azure", "status=503;times=100000");
        for (int i = 0; i < 12; i++) {
            assertThat(a.postAuthed("/api/v1/chat/completions", DeploymentsTest.chat(i)).statusCode()).isEqualTo(200);
        }
        assertThat(azure()).isEqualTo(3);
        assertThat(azureState(a)).isEqualTo("cooling");
        Eventually.until("the other instance learns the cooldown", Duration.ofSeconds(10), () -> azureState(b).equals("cooling"));
        sim.clearReceived();
        for (int i = 0; i < 20; i++) {
            assertThat(b.postAuthed("/api/v1/chat/completions", DeploymentsTest.chat(i)).statusCode()).isEqualTo(200);
        }
        assertThat(azure()).isZero();
    }
}
