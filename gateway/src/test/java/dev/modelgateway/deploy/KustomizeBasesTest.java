package dev.modelgateway.deploy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The kustomize bases are the chart's rendering, one source of truth: a chart changed without them fails here. */
class KustomizeBasesTest {
    @Test
    void theCommittedBasesAreTheChartRenderedInEachMode() throws Exception {
        for (String mode : KustomizeBases.MODES) {
            assertThat(KustomizeBases.committed(mode))
                    .as("deploy/kustomize/base/" + mode + " is stale: regenerate it with scripts/chart-render.sh")
                    .isEqualTo(KustomizeBases.files(mode));
        }
        assertThat(KustomizeBases.files("single")).containsKeys("statefulset.yaml", "kustomization.yaml")
                .doesNotContainKey("deployment.yaml");
        assertThat(KustomizeBases.files("ha")).containsKeys("deployment.yaml", "horizontalpodautoscaler.yaml", "poddisruptionbudget.yaml");
    }
}
