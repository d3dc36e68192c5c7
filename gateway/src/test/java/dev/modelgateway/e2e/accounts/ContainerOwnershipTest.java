package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vendor A keeps code execution containers under the gateway's one account and reuses one by its id: a key may
 * reuse only the containers vendor A created for it through the gateway. The operator has allowed code execution
 * ({@code vendors.anthropic.allowed_betas}), which is refused by default.
 */
@E2e
class ContainerOwnershipTest {
    private static final String BETA = "code-execution-2025-08-25";
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness h;
    static AdminApi admin;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, GatewayHarness.simVendors(sim).replace("  anthropic: {", "  anthropic: {allowed_betas: [" + BETA + "], "));
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
        admin = new AdminApi(h);
    }

    @AfterAll
    static void stop() {
        if (h != null) h.close();
        sim.close().await();
        vertx.close().await();
    }

    private static HttpResponse<String> send(String key, boolean stream, String container) {
        return h.post("/api/v1/messages", "{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":64,\"stream\":" + stream
                        + (container == null ? ",\"tools\":[{\"type\":\"code_execution_20250825\",\"name\":\"code_execution\"}]"
                        : ",\"container\":\"" + container + "\"")
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"run it\"}]}",
                "authorization", "Bearer " + key, "anthropic-beta", BETA);
    }

    @Test
    void onlyTheKeyVendorACreatedAContainerForMayReuseIt() {
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"container-owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"container-other\"}");
        HttpResponse<String> created = send(owner.secret(), false, null);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
        assertThat(sim.received().getLast().headers()).containsEntry("anthropic-beta", BETA);
        String container = Json.parseOrNull(created.body()).at("/container/id").asText();
        assertThat(container).startsWith("container_sim_");

        assertRefused(send(other.secret(), false, container), container);
        HttpResponse<String> reused = send(owner.secret(), false, container);
        assertThat(reused.statusCode()).as(reused.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(reused.body()).at("/container/id").asText()).isEqualTo(container);
    }

    @Test
    void aContainerNamedInAStreamIsOwnedToo() {
        AdminApi.CreatedKey owner = admin.create("{\"name\":\"stream-container-owner\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"stream-container-other\"}");
        HttpResponse<String> created = send(owner.secret(), true, null);
        assertThat(created.statusCode()).isEqualTo(200);
        Matcher delta = Pattern.compile("event: message_delta\\ndata: (\\{.*})").matcher(created.body());
        assertThat(delta.find()).as(created.body()).isTrue();
        String container = Json.parseOrNull(delta.group(1)).at("/delta/container/id").asText();
        assertThat(container).startsWith("container_sim_");

        assertRefused(send(other.secret(), true, container), container);
        assertThat(send(owner.secret(), true, container).statusCode()).isEqualTo(200);
    }

    /** Neutral: the same answer as for a container that does not exist, and the vendor never asked. */
    private static void assertRefused(HttpResponse<String> r, String container) {
        int before = sim.received().size();
        assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
        JsonNode error = Json.parseOrNull(r.body());
        assertThat(error.at("/error/type").asText()).isEqualTo("not_found_error");
        assertThat(error.at("/error/message").asText()).contains(container);
        HttpResponse<String> unknown = send(admin.create("{\"name\":\"nobody\"}").secret(), false, "container_never_made");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(Json.parseOrNull(unknown.body()).at("/error").toString())
                .isEqualTo(error.at("/error").toString().replace(container, "container_never_made"));
        assertThat(sim.received()).hasSize(before);
    }
}
