package dev.modelgateway.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;

/**
 * The chart in {@code deploy/helm/model-gateway}, linted and rendered by Helm's own library (helm-java bundles Helm's Go
 * code as a native library), as {@code helm lint} and {@code helm template} would.
 */
final class Chart {
    /** The chart, seen from the gateway module where Maven runs the tests. */
    static final Path DIR = Path.of("../deploy/helm/model-gateway");
    static final String RELEASE = "model-gateway";
    /** The oldest Kubernetes the chart supports (Chart.yaml's kubeVersion: the preStop sleep action). */
    static final String KUBE_VERSION = "v1.30.0";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private Chart() {
    }

    static LintResult lint() {
        return new Helm(DIR).lint().strict().call();
    }

    /** The objects rendered with these values (a values file's YAML, over the chart's defaults). */
    static Rendered render(String values) {
        return new Rendered(template(values));
    }

    /** Helm's output as text: one document per object, each after its "# Source: model-gateway/templates/X" line. */
    static String template(String values) {
        try {
            Path file = Files.createTempFile("values", ".yaml");
            try {
                Files.writeString(file, values);
                return new Helm(DIR).template().withName(RELEASE).withKubeVersion(KUBE_VERSION).withValuesFile(file).call();
            } finally {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Helm's refusal of these values (the schema's or a template's {@code fail}), or an error if it rendered them. */
    static String refusal(String values) {
        try {
            template(values);
        } catch (RuntimeException e) {
            return e.getMessage();
        }
        throw new AssertionError("the chart rendered values it should refuse:\n" + values);
    }

    /** Rendered objects, read as JSON trees. */
    record Rendered(List<ObjectNode> objects) {
        Rendered(String yaml) {
            this(parse(yaml));
        }

        private static List<ObjectNode> parse(String yaml) {
            try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
                List<ObjectNode> out = new ArrayList<>();
                while (docs.hasNext()) {
                    if (docs.next() instanceof ObjectNode o) out.add(o);
                }
                return out;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        List<String> kinds() {
            return objects.stream().map(o -> o.path("kind").asText()).sorted().toList();
        }

        /** The one object of this kind. */
        ObjectNode one(String kind) {
            List<ObjectNode> of = objects.stream().filter(o -> o.path("kind").asText().equals(kind)).toList();
            if (of.size() != 1) throw new AssertionError("expected one " + kind + ", rendered " + kinds());
            return of.getFirst();
        }

        /** The pod template of the workload (the StatefulSet's or the Deployment's). */
        JsonNode podSpec() {
            List<ObjectNode> workloads = objects.stream()
                    .filter(o -> List.of("StatefulSet", "Deployment").contains(o.path("kind").asText())).toList();
            if (workloads.size() != 1) throw new AssertionError("expected one workload, rendered " + kinds());
            return workloads.getFirst().at("/spec/template/spec");
        }

        JsonNode gateway() {
            return podSpec().at("/containers/0");
        }

        /** The container's environment variable's literal value, or null. */
        String env(String name) {
            return StreamSupport.stream(gateway().path("env").spliterator(), false)
                    .filter(e -> e.path("name").asText().equals(name)).findFirst()
                    .map(e -> e.has("value") ? e.path("value").asText() : null).orElse(null);
        }

        /** The variable's secretKeyRef ("secret/key"), or null. */
        String secretEnv(String name) {
            return StreamSupport.stream(gateway().path("env").spliterator(), false)
                    .filter(e -> e.path("name").asText().equals(name)).findFirst()
                    .map(e -> e.at("/valueFrom/secretKeyRef"))
                    .filter(JsonNode::isObject)
                    .map(r -> r.path("name").asText() + "/" + r.path("key").asText()).orElse(null);
        }
    }
}
