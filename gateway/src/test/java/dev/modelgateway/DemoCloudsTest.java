package dev.modelgateway;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.config.DeploymentApi;
import dev.modelgateway.config.DeploymentSpec;
import dev.modelgateway.config.ProviderType;
import dev.modelgateway.config.RoutingConfig;
import dev.modelgateway.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's cloud deployments as the configuration loader reads them: the two public models on a Bedrock and a
 * Vertex provider at the simulator, with their capabilities declared, and a service-account key file the Google
 * library can read, holding a private key no one else can.
 */
class DemoCloudsTest {
    @TempDir
    Path dir;

    @Test
    void twoVendorAModelsAreServedByTheSimulatedCloudsWithDeclaredCapabilities() throws Exception {
        DemoServiceAccount account = DemoServiceAccount.create(dir, DemoClouds.SERVICE_ACCOUNT_FILE, "http://127.0.0.1:1234/oauth2/token");

        RoutingConfig routing = DemoClouds.routing(dir, "http://127.0.0.1:1234", account);

        assertThat(routing.providers().get("demo-bedrock").type()).isEqualTo(ProviderType.BEDROCK);
        assertThat(routing.providers().get("demo-vertex").type()).isEqualTo(ProviderType.VERTEX);
        assertThat(routing.providers().values()).allSatisfy(p -> assertThat(p.baseUrl()).isEqualTo("http://127.0.0.1:1234"));
        List<DeploymentSpec> bedrock = routing.deployments().get(DemoClouds.BEDROCK_MODEL);
        List<DeploymentSpec> vertex = routing.deployments().get(DemoClouds.VERTEX_MODEL);
        assertThat(bedrock).singleElement().satisfies(d -> {
            assertThat(d.provider()).isEqualTo("demo-bedrock");
            assertThat(d.model()).isEqualTo(DemoClouds.BEDROCK_UPSTREAM);
            assertThat(d.api()).isEqualTo(DeploymentApi.NATIVE);
        });
        assertThat(vertex).singleElement().satisfies(d -> {
            assertThat(d.provider()).isEqualTo("demo-vertex");
            assertThat(d.model()).isEqualTo(DemoClouds.VERTEX_UPSTREAM);
        });
        for (Capabilities c : List.of(bedrock.getFirst().capabilities(), vertex.getFirst().capabilities())) {
            assertThat(c.promptCache()).isTrue();
            assertThat(c.thinking()).containsExactlyInAnyOrder("adaptive", "enabled");
        }
        // a reload must not read the demo's file as the whole configuration
        assertThat(routing.file()).isNull();
    }

    @Test
    void theServiceAccountKeyFileIsGooglesShapeAndOwnerOnly() throws Exception {
        DemoServiceAccount account = DemoServiceAccount.create(dir, "sa.json", "http://127.0.0.1:1234/oauth2/token");

        JsonNode key = Json.parseOrNull(Files.readString(account.file()));
        assertThat(key.path("type").asText()).isEqualTo("service_account");
        assertThat(key.path("client_email").asText()).isEqualTo(account.clientEmail());
        assertThat(key.path("token_uri").asText()).isEqualTo("http://127.0.0.1:1234/oauth2/token");
        assertThat(key.path("private_key").asText()).startsWith("-----BEGIN PRIVATE KEY-----\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(account.file()))).isEqualTo("rw-------");
    }
}
