package dev.modelgateway.e2e.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SecretVolume;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The master key rotated without a restart (docs/operations/key-rotation.md): a reload puts the new key beside the old
 * one ({@code server.previous_master_keys}), both work while the operators move over, and the old one is refused from
 * the first request after the reload that removes it, no request of a client moving over refused; the same through a
 * watched Kubernetes-style Secret volume. {@code identity.sign_in.disable_master_key} applied by a reload refuses it.
 */
@E2e
class MasterKeyRotationTest {
    static final String FIRST = "pk-master-first-0001";
    static final String SECOND = "pk-master-second-0002";
    static final String THIRD = "pk-master-third-0003";

    Vertx vertx;
    VendorSimulator sim;
    Path file;
    GatewayHarness h;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        file = Files.createTempFile("gateway", ".yaml");
    }

    @AfterEach
    void stop() throws Exception {
        if (h != null) h.close();
        sim.close().await();
        vertx.close().await();
        Files.deleteIfExists(file);
    }

    void write(String server) throws Exception {
        Files.writeString(file, GatewayHarness.simVendors(sim) + "server:\n" + server);
    }

    /** An admin call with {@code key}: 200 with a master key, 401 with any other. */
    int admin(String key) {
        return h.send("GET", "/api/v1/admin/keys", null, "authorization", "Bearer " + key).statusCode();
    }

    HttpResponse<String> reload(String key) {
        return h.send("POST", "/api/v1/admin/reload", null, "authorization", "Bearer " + key);
    }

    @Test
    void aReloadSwapsTheKeysWithAnOverlapAndTheOldOneStopsWhenRemoved() throws Exception {
        write("  master_key: " + FIRST + "\n");
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
        int port = h.gateway.port();
        assertThat(admin(FIRST)).isEqualTo(200);
        assertThat(admin(SECOND)).isEqualTo(401);

        // 1. the new key in force, the old one still accepted
        write("  master_key: " + SECOND + "\n  previous_master_keys: [" + FIRST + "]\n");
        HttpResponse<String> applied = reload(FIRST);
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(applied.body()).path("restart_needed")).isEmpty();
        assertThat(admin(FIRST)).isEqualTo(200);
        assertThat(admin(SECOND)).isEqualTo(200);
        assertThat(admin(THIRD)).isEqualTo(401);
        String config = h.send("GET", "/api/v1/admin/config", null, "authorization", "Bearer " + SECOND).body();
        JsonNode settings = Json.parseOrNull(config).path("settings");
        assertThat(config).doesNotContain(FIRST, SECOND);
        assertThat(settings.toString()).contains("****0002", "****0001");

        // 2. the old key removed: refused from the very next request
        write("  master_key: " + SECOND + "\n");
        assertThat(reload(SECOND).statusCode()).isEqualTo(200);
        HttpResponse<String> refused = h.send("GET", "/api/v1/admin/keys", null, "authorization", "Bearer " + FIRST);
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(Json.parseOrNull(refused.body()).at("/error/code").asText()).isEqualTo("invalid_api_key");
        assertThat(admin(SECOND)).isEqualTo(200);
        assertThat(h.gateway.port()).as("the same process, no restart").isEqualTo(port);

        // each change of keys is in the audit log, without a key
        JsonNode audit = Json.parseOrNull(h.send("GET", "/api/v1/admin/audit?limit=100&include=master_key.use", null, "authorization", "Bearer " + SECOND).body());
        // the two reloads asked for (the file's watcher may apply the same change too, as config-file); beside them
        // every master-key call is itself an entry (master_key.use)
        List<JsonNode> reloads = new ArrayList<>();
        audit.path("data").forEach(e -> {
            if (e.path("action").asText().equals("config.reload") && e.path("actor").asText().equals("master")) reloads.add(e);
        });
        assertThat(audit.toString()).contains("master_key.use");
        assertThat(reloads).hasSize(2).allSatisfy(e -> {
            assertThat(e.path("action").asText()).isEqualTo("config.reload");
            assertThat(e.at("/after/master_keys_changed").asBoolean()).isTrue();
        });
        assertThat(audit.toString()).doesNotContain(FIRST, SECOND);
    }

    @Test
    void rotatingByReloadLosesNoRequest() throws Exception {
        write("  master_key: " + FIRST + "\n");
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
        int port = h.gateway.port();
        AtomicReference<String> current = new AtomicReference<>(FIRST);
        AtomicBoolean stop = new AtomicBoolean();
        List<String> failures = new CopyOnWriteArrayList<>();
        AtomicInteger sent = new AtomicInteger();
        // a client that keeps calling through the rotation, moving to the new key once it is told of it
        Thread client = Thread.ofVirtual().start(() -> {
            for (int i = 0; i < 2_000 && !stop.get(); i++) {
                String key = current.get();
                int status = admin(key);
                sent.incrementAndGet();
                if (status != 200) failures.add(key + " -> " + status);
            }
        });
        Eventually.until("calls before the reload", Duration.ofSeconds(10), () -> sent.get() > 20);
        write("  master_key: " + SECOND + "\n  previous_master_keys: [" + FIRST + "]\n");
        assertThat(reload(FIRST).statusCode()).isEqualTo(200);
        int atSwitch = sent.get();
        current.set(SECOND);
        Eventually.until("calls with the new key", Duration.ofSeconds(10), () -> sent.get() > atSwitch + 20);
        write("  master_key: " + SECOND + "\n");
        assertThat(reload(SECOND).statusCode()).isEqualTo(200);
        int afterRemoval = sent.get();
        Eventually.until("calls after the old key is gone", Duration.ofSeconds(10), () -> sent.get() > afterRemoval + 20);
        stop.set(true);
        client.join();
        assertThat(failures).as("requests refused during the rotation").isEmpty();
        assertThat(admin(FIRST)).isEqualTo(401);
        assertThat(h.gateway.port()).as("the same process, no restart").isEqualTo(port);
    }

    @Test
    void disablingTheMasterKeyByReloadRefusesItEverywhere() throws Exception {
        write("  master_key: " + FIRST + "\n");
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
        String operator = Json.parseOrNull(h.send("POST", "/api/v1/admin/admin-keys", "{\"name\":\"ops\",\"role\":\"org_admin\"}",
                "authorization", "Bearer " + FIRST).body()).path("key").asText();
        Files.writeString(file, GatewayHarness.simVendors(sim) + "server:\n  master_key: " + FIRST + "\n"
                + "  public_url: https://gateway.example.test\n"
                + "identity:\n  sign_in:\n    disable_master_key: true\n    providers:\n"
                + "      corp: {issuer: \"https://idp.example.test\", client_id: gateway}\n");
        HttpResponse<String> applied = reload(FIRST);
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
        for (String path : List.of("/api/v1/admin/keys", "/api/v1/console/me", "/api/v1/models")) {
            HttpResponse<String> refused = h.send("GET", path, null, "authorization", "Bearer " + FIRST);
            assertThat(refused.statusCode()).as(path).isEqualTo(401);
            assertThat(Json.parseOrNull(refused.body()).at("/error/code").asText()).isEqualTo("master_key_disabled");
            assertThat(refused.body()).contains("admin key");
        }
        // an admin key administers, and applies the reload that brings the master key back
        assertThat(admin(operator)).isEqualTo(200);
        write("  master_key: " + FIRST + "\n");
        assertThat(reload(operator).statusCode()).isEqualTo(200);
        assertThat(admin(FIRST)).isEqualTo(200);
    }

    @Test
    void aReloadThatWouldLeaveNoMasterKeyKeepsItAndSaysARestartIsNeeded() throws Exception {
        write("  master_key: " + FIRST + "\n");
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
        Files.writeString(file, GatewayHarness.simVendors(sim));
        HttpResponse<String> applied = reload(FIRST);
        assertThat(applied.statusCode()).isEqualTo(200);
        assertThat(Json.parseOrNull(applied.body()).path("restart_needed").toString()).isEqualTo("[\"server.master_key\"]");
        assertThat(admin(FIRST)).isEqualTo(200);

        write("  previous_master_keys: [" + SECOND + "]\n");
        HttpResponse<String> badFile = reload(FIRST);
        assertThat(badFile.statusCode()).isEqualTo(400);
        assertThat(badFile.body()).contains("server.previous_master_keys").doesNotContain(SECOND);
    }

    @Test
    void theWatchedSecretVolumeRotatesTheMasterKey() throws Exception {
        try (SecretVolume secret = SecretVolume.create(Map.of("master", FIRST, "previous", ""))) {
            write("  master_key: \"${file:" + secret.path("master") + "}\"\n"
                    + "  previous_master_keys: \"${file:" + secret.path("previous") + "}\"\n");
            h = GatewayHarness.builder().simulator(sim).configFile(file).start();
            assertThat(admin(FIRST)).isEqualTo(200);

            secret.update(Map.of("master", SECOND, "previous", FIRST));
            Eventually.until("the new master key works", Duration.ofSeconds(30), () -> admin(SECOND) == 200);
            assertThat(admin(FIRST)).isEqualTo(200);

            secret.update(Map.of("master", SECOND, "previous", ""));
            Eventually.until("the old master key is refused", Duration.ofSeconds(30), () -> admin(FIRST) == 401);
            assertThat(admin(SECOND)).isEqualTo(200);
        }
    }
}
