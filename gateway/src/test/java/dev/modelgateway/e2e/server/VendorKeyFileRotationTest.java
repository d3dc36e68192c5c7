package dev.modelgateway.e2e.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.errors.InternalServerException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SecretVolume;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A vendor key read from a Kubernetes-style Secret volume ({@code ${file:PATH}}, docs/operations/key-rotation.md): the
 * vendor (the simulator) has revoked the old key and takes only the new one; once the Secret is updated, a reload (or
 * the watch, with no call of anyone's) makes the gateway's next call carry the new key, with no restart, and neither
 * key is ever shown.
 */
@E2e
class VendorKeyFileRotationTest {
    static final String OLD = "sk-vendor-key-one-0001";
    static final String NEW = "sk-vendor-key-two-0002";
    static final String MODEL = "platform/vendorB-5.5";

    Vertx vertx;
    VendorSimulator sim;
    SecretVolume secrets;
    Path file;
    GatewayHarness h;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        SimKeys defaults = SimKeys.defaults();
        sim = VendorSimulator.start(vertx, 0, new SimKeys(defaults.anthropic(), NEW, defaults.gemini(), defaults.dashscope())).await();
        secrets = SecretVolume.create(Map.of("openai", OLD + "\n"));
        file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, config(secrets.path("openai")));
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
    }

    String config(Path openAiKey) {
        return GatewayHarness.simVendors(sim).replace("api_key: " + SimKeys.defaults().openai(), "api_key: \"${file:" + openAiKey + "}\"");
    }

    @AfterEach
    void stop() throws Exception {
        if (h != null) h.close();
        sim.close().await();
        vertx.close().await();
        secrets.close();
        Files.deleteIfExists(file);
    }

    ChatCompletion chat(OpenAIClient client) {
        return client.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("hi").build());
    }

    String lastKeySent() {
        ReceivedRequest last = sim.received().getLast();
        return last.headers().get("authorization");
    }

    @Test
    void aReloadReadsTheUpdatedSecretAndTheNextCallCarriesTheNewKey() {
        OpenAIClient client = h.openai();
        assertThatThrownBy(() -> chat(client)).as("the vendor refuses the revoked key")
                .isInstanceOfSatisfying(InternalServerException.class, e -> assertThat(e.statusCode()).isEqualTo(502));
        assertThat(lastKeySent()).isEqualTo("Bearer " + OLD);

        secrets.update(Map.of("openai", NEW + "\n"));
        var reloaded = h.postAuthed("/api/v1/admin/reload", "");
        assertThat(reloaded.statusCode()).as(reloaded.body()).isEqualTo(200);
        int port = h.gateway.port();
        assertThat(chat(client).choices().getFirst().message().content().orElseThrow()).startsWith("Hello from");
        assertThat(lastKeySent()).isEqualTo("Bearer " + NEW);
        assertThat(h.gateway.port()).as("the same process, no restart").isEqualTo(port);

        // shown masked, or as the reference that brought it in; never the key
        String shown = h.getAuthed("/api/v1/admin/config").body();
        assertThat(shown).doesNotContain(NEW, OLD, "key-two").contains("****0002");
        assertThat(Json.parseOrNull(h.getAuthed("/api/v1/admin/audit?limit=1").body()).toString()).doesNotContain(NEW, OLD);
    }

    @Test
    void theWatchedSecretVolumeRotatesTheKeyWithoutAReloadCall() {
        secrets.update(Map.of("openai", NEW));
        // watched for what the configuration shows (masked), so that no call fails meanwhile and cools the deployment
        Eventually.until("the gateway has read the updated secret", Duration.ofSeconds(30),
                () -> h.getAuthed("/api/v1/admin/config").body().contains("****0002"));
        assertThat(chat(h.openai()).choices()).hasSize(1);
        assertThat(lastKeySent()).isEqualTo("Bearer " + NEW);
        // the newest entry but the master key's own uses (each is audited: break-glass)
        JsonNode audit = null;
        for (JsonNode e : Json.parseOrNull(h.getAuthed("/api/v1/admin/audit?limit=100").body()).path("data")) {
            if (!e.path("action").asText().equals("master_key.use")) {
                audit = e;
                break;
            }
        }
        assertThat(audit).isNotNull();
        assertThat(audit.path("action").asText()).isEqualTo("config.reload");
        assertThat(audit.path("actor").asText()).isEqualTo("config-file");
    }

    @Test
    void anUnreadableSecretFileIsRefusedNamingTheFieldAndTheKeyInForceStays() throws Exception {
        secrets.update(Map.of("openai", NEW));
        Files.writeString(file, config(secrets.path("openai")) + "\n");
        assertThat(h.postAuthed("/api/v1/admin/reload", "").statusCode()).isEqualTo(200);

        Path missing = secrets.path("openai-renamed");
        Files.writeString(file, config(missing));
        var refused = h.postAuthed("/api/v1/admin/reload", "");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(refused.body()).at("/error/message").asText())
                .contains("vendors.openai.api_key: cannot read the secret file ${file:" + missing + "}: no such file");
        assertThat(chat(h.openai()).choices()).hasSize(1);
        assertThat(lastKeySent()).isEqualTo("Bearer " + NEW);
    }
}
