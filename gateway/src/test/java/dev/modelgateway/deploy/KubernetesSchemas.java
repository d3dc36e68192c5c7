package dev.modelgateway.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPInputStream;

/**
 * Kubernetes' own schemas of its objects, offline (test resources {@code k8s-schemas/}, sources in its README): the API
 * server's OpenAPI definitions of one Kubernetes version, and the CRDs of the Gateway API's HTTPRoute and the Prometheus
 * Operator's ServiceMonitor. Made strict as kubeconform's {@code -strict} makes them: an object schema that lists its
 * properties refuses any other (a misspelt field is an error, not ignored as the API server's pruning would), and
 * int-or-string and quantities take either type. CEL rules ({@code x-kubernetes-validations}) are not evaluated.
 */
final class KubernetesSchemas {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);
    private static final List<String> CRDS = List.of("gateway.networking.k8s.io_httproutes-v1.6.1.yaml",
            "monitoring.coreos.com_servicemonitors-v0.93.0.yaml");

    private final String kubernetesVersion;
    private final ObjectNode definitions;
    /** "group/version/Kind" (group empty for the core API) to its definition's name, or its CRD's schema. */
    private final Map<String, String> definitionByKind = new HashMap<>();
    private final Map<String, JsonNode> crdByKind = new HashMap<>();
    /** Compiled on first use; the test classes that share an instance may run at once. */
    private final Map<String, Schema> compiled = new ConcurrentHashMap<>();

    private KubernetesSchemas(String kubernetesVersion) {
        this.kubernetesVersion = kubernetesVersion;
        JsonNode swagger = read("kubernetes-" + kubernetesVersion + "-swagger.json.gz");
        definitions = (ObjectNode) swagger.get("definitions");
        definitions.properties().forEach(d -> {
            for (JsonNode gvk : d.getValue().path("x-kubernetes-group-version-kind")) {
                definitionByKind.put(key(gvk.path("group").asText(), gvk.path("version").asText(), gvk.path("kind").asText()), d.getKey());
            }
            strict(d.getValue());
        });
        // as kubeconform's schemas: the API server takes either type for these two
        definitions.set("io.k8s.apimachinery.pkg.util.intstr.IntOrString", anyOf("string", "integer"));
        definitions.set("io.k8s.apimachinery.pkg.api.resource.Quantity", anyOf("string", "number"));
        for (String file : CRDS) {
            JsonNode crd = read(file);
            String group = crd.at("/spec/group").asText(), kind = crd.at("/spec/names/kind").asText();
            for (JsonNode version : crd.at("/spec/versions")) {
                JsonNode schema = version.at("/schema/openAPIV3Schema").deepCopy();
                strict(schema);
                crdByKind.put(key(group, version.path("name").asText(), kind), schema);
            }
        }
    }

    /** The schemas of Kubernetes {@code version} ("1.30", "1.36": the files under k8s-schemas/). */
    static KubernetesSchemas of(String version) {
        return new KubernetesSchemas(version);
    }

    String kubernetesVersion() {
        return kubernetesVersion;
    }

    /** What is wrong with the object by its kind's schema, as "Kind/name: /path: message" lines; empty when valid. */
    List<String> errors(JsonNode object) {
        String apiVersion = object.path("apiVersion").asText();
        String kind = object.path("kind").asText();
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        String version = apiVersion.substring(apiVersion.indexOf('/') + 1);
        String name = kind + "/" + object.at("/metadata/name").asText();
        Schema schema = schema(key(group, version, kind));
        if (schema == null) return List.of(name + ": no schema for " + apiVersion + " " + kind + " in Kubernetes " + kubernetesVersion);
        List<String> errors = new ArrayList<>();
        for (Error e : schema.validate(object)) errors.add(name + ": " + e.getInstanceLocation() + ": " + e.getMessage());
        return errors;
    }

    private Schema schema(String key) {
        return compiled.computeIfAbsent(key, k -> {
            String definition = definitionByKind.get(k);
            if (definition != null) {
                ObjectNode root = JSON.createObjectNode().put("$ref", "#/definitions/" + definition);
                root.set("definitions", definitions);
                return REGISTRY.getSchema(SchemaLocation.of("https://kubernetes.io/schemas/" + kubernetesVersion + "/" + definition), root);
            }
            JsonNode crd = crdByKind.get(k);
            return crd == null ? null : REGISTRY.getSchema(SchemaLocation.of("https://kubernetes.io/crds/" + k), crd);
        });
    }

    /**
     * An object schema that lists its properties refuses others, unless it keeps unknown fields on purpose
     * ({@code x-kubernetes-preserve-unknown-fields}); the same below it.
     */
    private static void strict(JsonNode schema) {
        if (!(schema instanceof ObjectNode node)) return;
        JsonNode properties = node.get("properties");
        if (properties instanceof ObjectNode props) {
            props.properties().forEach(p -> strict(p.getValue()));
            if (!node.has("additionalProperties") && !node.path("x-kubernetes-preserve-unknown-fields").asBoolean()) {
                node.put("additionalProperties", false);
            }
        }
        strict(node.get("items"));
        strict(node.get("additionalProperties"));
        for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
            if (node.get(combinator) instanceof ArrayNode all) all.forEach(KubernetesSchemas::strict);
        }
    }

    private static ObjectNode anyOf(String... types) {
        ObjectNode node = JSON.createObjectNode();
        ArrayNode any = node.putArray("anyOf");
        for (String t : types) any.addObject().put("type", t);
        return node;
    }

    private static String key(String group, String version, String kind) {
        return group + "/" + version + "/" + kind;
    }

    private static JsonNode read(String file) {
        try (InputStream in = KubernetesSchemas.class.getResourceAsStream("/k8s-schemas/" + file)) {
            if (in == null) throw new IllegalStateException("k8s-schemas/" + file + " is missing from the test resources");
            return file.endsWith(".gz") ? JSON.readTree(new GZIPInputStream(in)) : YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
