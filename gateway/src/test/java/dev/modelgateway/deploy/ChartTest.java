package dev.modelgateway.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.marcnuri.helm.LintResult;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.Setting;
import dev.modelgateway.config.Settings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Helm chart (docs/operations/kubernetes.md), linted and rendered by real Helm, each rendered object validated
 * against the strict schemas of the oldest (1.30) and newest (1.36) Kubernetes it targets, and the contracts of its
 * two modes, its shutdown arithmetic, its security and its refusals checked on what it renders.
 */
class ChartTest {
    static final List<KubernetesSchemas> KUBERNETES = List.of(KubernetesSchemas.of("1.30"), KubernetesSchemas.of("1.36"));
    /** Every optional object switched on, with values in every list. */
    static final String EVERYTHING = """
            ingress: {enabled: true, className: nginx, host: llm.example.com, tlsSecret: llm-tls,
                      annotations: {nginx.ingress.kubernetes.io/proxy-body-size: 64m}}
            httpRoute: {enabled: true, parentRefs: [{name: public, namespace: gateways, sectionName: https}],
                        hostnames: [llm.example.com]}
            serviceMonitor: {enabled: true, labels: {release: prometheus}}
            vendorKeys:
              - {env: OPENAI_API_KEY, secret: vendor-keys, key: openai}
              - {env: AZURE_KEY, secret: vendor-keys, key: azure}
            extraEnv: [{name: JDK_JAVA_OPTIONS, value: -Xmx768m}]
            image: {pullSecrets: [registry], digest: "sha256:%s"}
            networkPolicy:
              ingressFrom: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: ingress-nginx}}}]
              metricsFrom: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: monitoring}}}]
              egress:
                database: {to: [{ipBlock: {cidr: 10.20.0.0/16}}], ports: [5432]}
                extra: [{to: [{podSelector: {matchLabels: {app: otel-collector}}}], ports: [{port: 4318}]}]
            tolerations: [{key: dedicated, operator: Equal, value: llm, effect: NoSchedule}]
            nodeSelector: {kubernetes.io/arch: amd64}
            priorityClassName: high
            """.formatted("a".repeat(64));

    @Test
    void helmLintsTheChartStrictly() {
        LintResult lint = Chart.lint();
        assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
    }

    @Test
    void singleModeIsOneStatefulSetPodOnAClaimWithNoPdbOrAutoscaler() {
        Chart.Rendered single = Chart.render("");
        assertThat(single.kinds()).containsExactly("ConfigMap", "NetworkPolicy", "Service", "ServiceAccount", "StatefulSet");
        ObjectNode set = single.one("StatefulSet");
        assertThat(set.at("/spec/replicas").asInt()).isEqualTo(1);
        JsonNode claim = set.at("/spec/volumeClaimTemplates/0");
        assertThat(claim.at("/metadata/name").asText()).isEqualTo("data");
        assertThat(claim.at("/spec/resources/requests/storage").asText()).isEqualTo("5Gi");
        assertThat(mountPath(single, "data")).isEqualTo("/var/lib/model-gateway");
        assertThat(set.at("/spec/persistentVolumeClaimRetentionPolicy/whenDeleted").asText()).isEqualTo("Retain");
        // SQLite in the data directory, no shared stores
        assertThat(single.env("GATEWAY_SERVER_DATA_DIR")).isEqualTo("/var/lib/model-gateway");
        assertThat(single.secretEnv("GATEWAY_ACCOUNTS_DATABASE_URL")).isNull();
        assertThat(single.secretEnv("GATEWAY_ACCOUNTS_REDIS_URL")).isNull();
        assertValid(single);
    }

    @Test
    void haModeIsADeploymentOnPostgresqlAndRedisThatRollsWithoutLosingAReadyPod() {
        Chart.Rendered ha = Chart.render("mode: ha\ndatabase: {existingSecret: pg, key: url}\n");
        assertThat(ha.kinds()).containsExactly("ConfigMap", "Deployment", "HorizontalPodAutoscaler", "NetworkPolicy",
                "PodDisruptionBudget", "Service", "ServiceAccount");
        ObjectNode deployment = ha.one("Deployment");
        // no claim: the state is in PostgreSQL; the journal on an emptyDir
        assertThat(deployment.toString()).doesNotContain("persistentVolumeClaim").doesNotContain("volumeClaimTemplates");
        assertThat(volume(ha, "data").has("emptyDir")).isTrue();
        // the HPA owns the replica count
        assertThat(deployment.at("/spec/replicas").isMissingNode()).isTrue();
        assertThat(ha.one("HorizontalPodAutoscaler").at("/spec/scaleTargetRef/name").asText()).isEqualTo(deployment.at("/metadata/name").asText());
        assertThat(ha.one("HorizontalPodAutoscaler").at("/spec/minReplicas").asInt()).isEqualTo(2);
        assertThat(ha.one("PodDisruptionBudget").at("/spec/maxUnavailable").asInt()).isEqualTo(1);
        // a new pod serves only once ready (migrated), and no old one stops before
        assertThat(deployment.at("/spec/strategy/rollingUpdate/maxUnavailable").asInt()).isZero();
        assertThat(deployment.at("/spec/strategy/rollingUpdate/maxSurge").asInt()).isEqualTo(1);
        assertThat(ha.gateway().at("/readinessProbe/httpGet/path").asText()).isEqualTo("/ready");
        assertThat(ha.secretEnv("GATEWAY_ACCOUNTS_DATABASE_URL")).isEqualTo("pg/url");
        assertThat(ha.secretEnv("GATEWAY_ACCOUNTS_REDIS_URL")).isEqualTo("model-gateway-redis/redis-url");
        // spread over nodes
        assertThat(ha.podSpec().at("/topologySpreadConstraints/0/topologyKey").asText()).isEqualTo("kubernetes.io/hostname");
        // the stores' ports are allowed out
        assertThat(egressPorts(ha)).contains(5432, 6379, 53, 443);
        assertThat(egressPorts(Chart.render(""))).doesNotContain(5432, 6379);
        assertValid(ha);

        Chart.Rendered fixed = Chart.render("mode: ha\nreplicas: 3\nautoscaling: {enabled: false}\njournal: {existingClaim: journal}\n");
        assertThat(fixed.kinds()).doesNotContain("HorizontalPodAutoscaler");
        assertThat(fixed.one("Deployment").at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(volume(fixed, "data").at("/persistentVolumeClaim/claimName").asText()).isEqualTo("journal");
        assertValid(fixed);
    }

    @ParameterizedTest
    @CsvSource({"600, 5, 20", "30, 1, 15", "3600, 10, 60"})
    void theDrainLiesStrictlyInsideTheGracePeriodAndNoStreamOutlastsIt(int maxStream, int preStop, int margin) {
        for (String mode : List.of("single", "ha")) {
            Chart.Rendered r = Chart.render("""
                    mode: %s
                    maxStreamSeconds: %d
                    preStopSleepSeconds: %d
                    shutdownMarginSeconds: %d
                    ingress: {enabled: true, host: llm.example.com}
                    httpRoute: {enabled: true, parentRefs: [{name: public}]}
                    """.formatted(mode, maxStream, preStop, margin));
            int grace = r.podSpec().path("terminationGracePeriodSeconds").asInt();
            int sleep = r.gateway().at("/lifecycle/preStop/sleep/seconds").asInt();
            int drain = Integer.parseInt(r.env("GATEWAY_SERVER_DRAIN_SECONDS"));
            assertThat(sleep).isEqualTo(preStop);
            assertThat(drain).isEqualTo(maxStream);
            assertThat(Integer.parseInt(r.env("GATEWAY_SERVER_MAX_VENDOR_STREAM_SECONDS"))).isEqualTo(maxStream);
            // SIGTERM comes after the preStop sleep; the drain, then the ledger and closes (at most 15 s), before the kill
            assertThat(grace).isEqualTo(preStop + maxStream + margin).isGreaterThanOrEqualTo(sleep + drain + 15);
            assertThat(grace).isGreaterThan(sleep + drain);
            // the proxies in front wait longer than the longest call, and stream unbuffered
            JsonNode annotations = r.one("Ingress").at("/metadata/annotations");
            assertThat(annotations.path("nginx.ingress.kubernetes.io/proxy-read-timeout").asInt()).isGreaterThan(maxStream);
            assertThat(annotations.path("nginx.ingress.kubernetes.io/proxy-send-timeout").asInt()).isGreaterThan(maxStream);
            assertThat(annotations.path("nginx.ingress.kubernetes.io/proxy-buffering").asText()).isEqualTo("off");
            JsonNode timeouts = r.one("HTTPRoute").at("/spec/rules/0/timeouts");
            assertThat(seconds(timeouts.path("request").asText())).isGreaterThan(maxStream);
            assertThat(seconds(timeouts.path("backendRequest").asText())).isGreaterThan(maxStream)
                    .isLessThanOrEqualTo(seconds(timeouts.path("request").asText()));
            assertValid(r);
        }
    }

    @Test
    void everyOptionalObjectValidatesIncludingTheGatewayApiRouteAndTheServiceMonitor() {
        for (String mode : List.of("single", "ha")) {
            Chart.Rendered r = Chart.render("mode: " + mode + "\n" + EVERYTHING);
            assertThat(r.kinds()).contains("Ingress", "HTTPRoute", "ServiceMonitor");
            assertThat(r.one("ServiceMonitor").at("/spec/endpoints/0/port").asText()).isEqualTo("metrics");
            assertThat(r.gateway().path("image").asText()).isEqualTo("model-gateway:" + appVersion() + "@sha256:" + "a".repeat(64));
            assertThat(r.secretEnv("OPENAI_API_KEY")).isEqualTo("vendor-keys/openai");
            // the operator's annotation wins over the chart's
            assertThat(r.one("Ingress").at("/metadata/annotations/nginx.ingress.kubernetes.io~1proxy-body-size").asText()).isEqualTo("64m");
            assertValid(r);
        }
    }

    @Test
    void everyContainerRunsAsNonRootOnAReadOnlyRootWithNoCapabilities() {
        for (Chart.Rendered r : List.of(Chart.render(""), Chart.render("mode: ha\n" + EVERYTHING))) {
            JsonNode pod = r.podSpec();
            assertThat(pod.at("/securityContext/runAsNonRoot").asBoolean()).isTrue();
            // the image's user, not root
            assertThat(pod.at("/securityContext/runAsUser").asInt()).isEqualTo(65532);
            assertThat(pod.at("/securityContext/runAsGroup").asInt()).isEqualTo(65532);
            assertThat(pod.at("/securityContext/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
            assertThat(pod.path("automountServiceAccountToken").asBoolean(true)).isFalse();
            assertThat(pod.toString()).doesNotContain("hostPath").doesNotContain("hostNetwork");
            List<JsonNode> containers = new ArrayList<>();
            pod.path("containers").forEach(containers::add);
            pod.path("initContainers").forEach(containers::add);
            assertThat(containers).isNotEmpty();
            for (JsonNode c : containers) {
                JsonNode sc = c.path("securityContext");
                assertThat(sc.path("runAsNonRoot").asBoolean()).as(c.path("name").asText()).isTrue();
                assertThat(sc.path("readOnlyRootFilesystem").asBoolean()).isTrue();
                assertThat(sc.path("allowPrivilegeEscalation").asBoolean(true)).isFalse();
                assertThat(sc.at("/capabilities/drop").toString()).isEqualTo("[\"ALL\"]");
                assertThat(sc.at("/seccompProfile/type").asText()).isEqualTo("RuntimeDefault");
                // the one writable place is a volume: the data directory (the JVM's temporary files too)
                assertThat(mountPath(r, "data")).isEqualTo("/var/lib/model-gateway");
            }
        }
    }

    @Test
    void probesAndScrapesUseTheMetricsPortTheGatewayIsToldToServe() {
        Chart.Rendered r = Chart.render("");
        JsonNode c = r.gateway();
        assertThat(r.env("GATEWAY_OBSERVABILITY_METRICS_PORT")).isEqualTo("9464");
        assertThat(r.env("GATEWAY_SERVER_PORT")).isEqualTo("8080");
        Map<String, Integer> ports = new HashMap<>();
        c.path("ports").forEach(p -> ports.put(p.path("name").asText(), p.path("containerPort").asInt()));
        assertThat(ports).containsEntry("metrics", 9464).containsEntry("http", 8080);
        for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
            assertThat(c.at("/" + probe + "/httpGet/port").asText()).as(probe).isEqualTo("metrics");
        }
        assertThat(c.at("/livenessProbe/httpGet/path").asText()).isEqualTo("/health");
        assertThat(c.at("/readinessProbe/httpGet/path").asText()).isEqualTo("/ready");
        // a pod waiting on another's migration is not restarted before the gateway's own 60 s start-up bound
        assertThat(c.at("/startupProbe/periodSeconds").asInt() * c.at("/startupProbe/failureThreshold").asInt()).isGreaterThan(60);
        // the config file is the mounted ConfigMap's, as a directory (a subPath mount is never updated)
        // the image's CMD is `serve`: args replace it
        assertThat(c.path("args").toString()).isEqualTo("[\"serve\",\"--config\",\"/etc/model-gateway/gateway.yaml\"]");
        assertThat(mountPath(r, "config")).isEqualTo("/etc/model-gateway");
        assertThat(c.path("volumeMounts").toString()).doesNotContain("subPath");
        assertThat(volume(r, "config").at("/configMap/name").asText()).isEqualTo(r.one("ConfigMap").at("/metadata/name").asText());
    }

    @Test
    void theGatewayAcceptsTheRenderedFileAndEveryVariableTheChartSets(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Chart.Rendered r = Chart.render("""
                mode: ha
                config:
                  models:
                    platform/vendorB-5.5: {upstream: gpt-5.5}
                  aliases: {fast: platform/vendorB-5.5}
                  routing: {cooldown: {seconds: 10}}
                """);
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, r.one("ConfigMap").at("/data/gateway.yaml").asText());
        Map<String, String> env = new HashMap<>();
        r.gateway().path("env").forEach(e -> env.put(e.path("name").asText(), e.has("value") ? e.path("value").asText() : null));
        // every GATEWAY_ variable the chart sets is a setting the gateway declares (a misspelt one would be ignored)
        Set<String> declared = Settings.ALL.stream().map(Setting::env).filter(Objects::nonNull).collect(Collectors.toSet());
        assertThat(env.keySet().stream().filter(n -> n.startsWith("GATEWAY_")).filter(n -> !declared.contains(n)).toList())
                .as("variables the gateway does not declare").isEmpty();
        // the secrets' values, as the kubelet would put them in
        env.put("GATEWAY_SERVER_MASTER_KEY", "pk-chart-test");
        env.put("GATEWAY_ACCOUNTS_DATABASE_URL", "jdbc:postgresql://db:5432/gateway?user=gateway");
        env.put("GATEWAY_ACCOUNTS_REDIS_URL", "redis://redis:6379");
        GatewayConfig config = new ConfigLoader(env::get).load(file);
        assertThat(config.port()).isEqualTo(8080);
        assertThat(config.redisUrl()).isEqualTo("redis://redis:6379");
        assertThat(config.settings().integer(Settings.SERVER_MAX_VENDOR_STREAM_SECONDS)).isEqualTo(600);
        assertThat(config.settings().integer(Settings.OBSERVABILITY_METRICS_PORT)).isEqualTo(9464);
        assertThat(config.ledgerJournalDir()).isEqualTo(Path.of("/var/lib/model-gateway/journal"));

        // the chart's defaults alone make a file the gateway starts on
        Files.writeString(file, Chart.render("").one("ConfigMap").at("/data/gateway.yaml").asText());
        assertThat(new ConfigLoader(Map.of("GATEWAY_SERVER_DATA_DIR", "/var/lib/model-gateway")::get).load(file).databaseUrl())
                .isEqualTo("jdbc:sqlite:/var/lib/model-gateway/gateway.db");
    }

    @Test
    void valuesTheChartCannotServeAreRefusedNamingTheValue() {
        assertThat(Chart.refusal("replicas: 2\n")).contains("replicas").contains("must be 1");
        assertThat(Chart.refusal("replica: 2\n")).contains("additional properties 'replica' not allowed");
        assertThat(Chart.refusal("networkPolicy: {egres: {}}\n")).contains("additional properties 'egres' not allowed");
        assertThat(Chart.refusal("mode: cluster\n")).contains("mode");
        assertThat(Chart.refusal("maxStreamSeconds: 0\n")).contains("maxStreamSeconds");
        assertThat(Chart.refusal("shutdownMarginSeconds: 5\n")).contains("shutdownMarginSeconds");
        assertThat(Chart.refusal("config: {servr: {port: 1}}\n")).contains("servr");
        assertThat(Chart.refusal("database: {existingSecret: pg}\n")).contains("database and redis are for mode ha");
        assertThat(Chart.refusal("mode: ha\nautoscaling: {minReplicas: 5, maxReplicas: 3}\n")).contains("autoscaling.maxReplicas (3)");
        assertThat(Chart.refusal("httpRoute: {enabled: true}\n")).contains("httpRoute.parentRefs");
        // mode ha runs several: replicas is free there
        assertThat(Chart.render("mode: ha\nreplicas: 4\nautoscaling: {enabled: false}\n").one("Deployment").at("/spec/replicas").asInt()).isEqualTo(4);
    }

    @Test
    void theStrictSchemasRefuseAMisspeltFieldAndAWrongType() {
        ObjectNode deployment = Chart.render("mode: ha\n").one("Deployment");
        ObjectNode typo = deployment.deepCopy();
        ((ObjectNode) typo.at("/spec/template/spec/containers/0")).put("imagePullPolcy", "Always");
        ObjectNode wrongType = deployment.deepCopy();
        ((ObjectNode) wrongType.at("/spec/template/spec")).put("terminationGracePeriodSeconds", "ten");
        for (KubernetesSchemas k8s : KUBERNETES) {
            assertThat(k8s.errors(deployment)).isEmpty();
            assertThat(k8s.errors(typo)).singleElement().asString().contains("imagePullPolcy");
            assertThat(k8s.errors(wrongType)).singleElement().asString().contains("terminationGracePeriodSeconds");
        }
        ObjectNode route = Chart.render("httpRoute: {enabled: true, parentRefs: [{name: public}]}\n").one("HTTPRoute");
        ((ObjectNode) route.at("/spec/rules/0")).putObject("timeout").put("request", "10s");
        assertThat(KUBERNETES.getFirst().errors(route)).singleElement().asString().contains("timeout");
    }

    @Test
    void theChartIsTheProjectsVersion() throws Exception {
        String pom = Files.readString(Path.of("../pom.xml"));
        String project = pom.replaceFirst("(?s).*?\\n  <version>([^<]+)</version>.*", "$1");
        String chart = Files.readString(Chart.DIR.resolve("Chart.yaml"));
        String release = project.replace("-SNAPSHOT", "");
        assertThat(chart).contains("\nversion: " + release + "\n").contains("\nappVersion: \"" + release + "\"\n");
    }

    static void assertValid(Chart.Rendered r) {
        for (KubernetesSchemas k8s : KUBERNETES) {
            List<String> errors = r.objects().stream().flatMap(o -> k8s.errors(o).stream()).toList();
            assertThat(errors).as("invalid on Kubernetes " + k8s.kubernetesVersion()).isEmpty();
        }
    }

    static String appVersion() {
        try {
            return Files.readString(Chart.DIR.resolve("Chart.yaml")).replaceFirst("(?s).*\\nappVersion: \"([^\"]+)\".*", "$1");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static String mountPath(Chart.Rendered r, String volume) {
        for (JsonNode m : r.gateway().path("volumeMounts")) if (m.path("name").asText().equals(volume)) return m.path("mountPath").asText();
        return null;
    }

    private static JsonNode volume(Chart.Rendered r, String name) {
        for (JsonNode v : r.podSpec().path("volumes")) if (v.path("name").asText().equals(name)) return v;
        throw new AssertionError("no volume " + name);
    }

    private static List<Integer> egressPorts(Chart.Rendered r) {
        List<Integer> ports = new ArrayList<>();
        r.one("NetworkPolicy").at("/spec/egress").forEach(rule -> rule.path("ports").forEach(p -> ports.add(p.path("port").asInt())));
        return ports;
    }

    private static int seconds(String duration) {
        assertThat(duration).matches("[0-9]+s");
        return Integer.parseInt(duration.substring(0, duration.length() - 1));
    }
}
