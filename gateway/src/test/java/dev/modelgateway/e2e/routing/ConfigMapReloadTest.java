package dev.modelgateway.e2e.routing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration file as Kubernetes mounts a ConfigMap (docs/operations/kubernetes.md, "Configuration"): the
 * kubelet's atomic writer keeps each version in a timestamped directory, points {@code ..data} at it, and the file
 * the gateway reads is a symlink {@code gateway.yaml -> ..data/gateway.yaml}. An update writes a new directory, swaps
 * {@code ..data} by renaming a new symlink over it, and deletes the old directory: the file's path never changes, its
 * target does. The running gateway applies each update, an alias added, then renamed with the file's size unchanged.
 */
@E2e
class ConfigMapReloadTest {
    Vertx vertx;
    VendorSimulator sim;
    GatewayHarness gateway;
    @TempDir
    Path volume;
    Path current;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        current = publish(GatewayHarness.simVendors(sim), 1);
        Files.createSymbolicLink(volume.resolve("..data"), current.getFileName());
        Files.createSymbolicLink(volume.resolve("gateway.yaml"), Path.of("..data/gateway.yaml"));
        gateway = GatewayHarness.builder().simulator(sim).configFile(volume.resolve("gateway.yaml")).start();
    }

    @AfterEach
    void stop() {
        if (gateway != null) gateway.close();
        sim.close().await();
        vertx.close().await();
    }

    @Test
    void anUpdatedConfigMapIsAppliedWithoutARestart() throws Exception {
        assertThat(aliasOf("k8s-a")).isNull();

        update(GatewayHarness.simVendors(sim) + "aliases: {k8s-a: platform/vendorB-5.5}\n", 2);
        Eventually.until("the alias added by the ConfigMap is served", Duration.ofSeconds(30), () -> aliasOf("k8s-a") != null);
        assertThat(aliasOf("k8s-a")).isEqualTo("platform/vendorB-5.5");
        var answer = gateway.postAuthed("/api/v1/chat/completions",
                "{\"model\":\"k8s-a\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);

        // the same number of bytes: only the target's modification time and contents differ
        long size = Files.size(volume.resolve("gateway.yaml"));
        update(GatewayHarness.simVendors(sim) + "aliases: {k8s-b: platform/vendorB-5.5}\n", 3);
        assertThat(Files.size(volume.resolve("gateway.yaml"))).isEqualTo(size);
        Eventually.until("the renamed alias is served", Duration.ofSeconds(30), () -> aliasOf("k8s-b") != null);
        assertThat(aliasOf("k8s-a")).isNull();
        var gone = gateway.postAuthed("/api/v1/chat/completions",
                "{\"model\":\"k8s-a\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(gone.statusCode()).isEqualTo(404);
    }

    /** The kubelet's update: a new timestamped directory, ..data renamed to point at it, the old one removed. */
    private void update(String yaml, int version) throws IOException {
        Path next = publish(yaml, version);
        Path swap = volume.resolve("..data_tmp");
        Files.createSymbolicLink(swap, next.getFileName());
        Files.move(swap, volume.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
        try (Stream<Path> old = Files.walk(current)) {
            for (Path p : old.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
        current = next;
    }

    private Path publish(String yaml, int version) throws IOException {
        Path dir = Files.createDirectory(volume.resolve("..2026_12_07_10_00_0" + version + ".10000000" + version));
        Files.writeString(dir.resolve("gateway.yaml"), yaml);
        return dir;
    }

    /** The model an alias resolves to in the routes the gateway serves, or null. */
    private String aliasOf(String alias) {
        JsonNode models = Json.parseOrNull(gateway.getAuthed("/api/v1/models").body());
        for (JsonNode m : models.path("data")) {
            if (m.path("id").asText().equals(alias)) return m.path("alias_of").asText(null);
        }
        return null;
    }
}
