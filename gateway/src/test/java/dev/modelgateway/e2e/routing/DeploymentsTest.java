package dev.modelgateway.e2e.routing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One public model on two deployments of two providers (Azure OpenAI at weight 3, an OpenAI-compatible server at
 * weight 1), configured in a file: the spread by weight, and a failing deployment cooled down and probed back. The
 * counts come from the simulator's request log.
 */
@E2e
class DeploymentsTest {
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness h;
    /** Far longer than the calls that must see it: counts, not timings, decide the assertions. */
    static final Duration COOLDOWN = Duration.ofSeconds(8);
    /** The breakers' clock: a cooldown ends when a test advances it past it. */
    static final TestClock clock = new TestClock();
    /** Credentials in a provider's base URL, as a proxy in front of a vendor may want them. */
    static final String PROXY_USER_INFO = "proxyuser:s3cretPassw0rd";
    static final String PROXY_PATH_TOKEN = "tok3nAbCdEf0123456789";

    static String config(VendorSimulator sim) {
        String base = sim.baseUrl();
        return GatewayHarness.simVendors(sim) + """
                providers:
                  azure-eu:
                    type: azure-openai
                    base_url: %s/azure
                    api_version: 2024-10-21
                    api_key: %s
                  vllm:
                    type: openai-compatible
                    base_url: %s/compat/v1
                  proxied:
                    type: openai-compatible
                    base_url: %s/%s/v1
                models:
                  team/chat:
                    kind: chat
                    context_window: 128000
                    max_output_tokens: 16000
                    capabilities: [chat, tools]
                    price: {input: 1.00, output: 2.00}
                    aliases: [team-chat]
                    deployments:
                      - {provider: azure-eu, model: gpt-4o-eu, weight: 3, region: eu}
                      - {provider: vllm, model: llama-3.3-70b, weight: 1}
                  team/unpriced:
                    kind: chat
                    context_window: 8000
                    max_output_tokens: 1000
                    deployments: [{provider: vllm, model: llama-3.3-70b}]
                  team/proxied:
                    kind: chat
                    context_window: 128000
                    max_output_tokens: 16000
                    price: {input: 1.00, output: 2.00}
                    deployments: [{provider: proxied, model: llama-3.3-70b}]
                """.formatted(base, SimKeys.AZURE, base, base.replace("://", "://" + PROXY_USER_INFO + "@"), PROXY_PATH_TOKEN);
    }

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        Path file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, config(sim));
        h = GatewayHarness.builder().simulator(sim).configFile(file)
                .breaker(new CircuitBreaker.Thresholds(3, COOLDOWN, COOLDOWN.multipliedBy(2))).clock(clock).start();
    }

    @AfterAll
    static void stop() {
        h.close();
        sim.close().await();
        vertx.close().await();
    }

    @BeforeEach
    void clean() throws Exception {
        control("DELETE", "/_sim/faults");
        sim.clearReceived();
    }

    static void control(String method, String path) throws Exception {
        HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(sim.baseUrl() + path)).method(method,
                HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
    }

    static String chat(int i) {
        return "{\"model\":\"team/chat\",\"messages\":[{\"role\":\"user\",\"content\":\"hello " + i + "\"}]}";
    }

    static long count(String vendor) {
        return sim.received().stream().map(ReceivedRequest::vendor).filter(vendor::equals).count();
    }

    /** {@code n} chat calls, 16 at a time; the statuses in order. */
    static List<Integer> send(int n) {
        return send(n, 16);
    }

    static List<Integer> send(int n, int parallel) {
        List<Integer> statuses = new ArrayList<>();
        for (int from = 0; from < n; from += parallel) {
            List<CompletableFuture<Integer>> batch = new ArrayList<>();
            for (int i = from; i < Math.min(n, from + parallel); i++) {
                int k = i;
                batch.add(CompletableFuture.supplyAsync(() -> h.postAuthed("/api/v1/chat/completions", chat(k)).statusCode()));
            }
            batch.forEach(f -> statuses.add(f.join()));
        }
        return statuses;
    }

    @Test
    void weightsThreeToOneSpreadTwoThousandRequests() {
        List<Integer> statuses = send(2000);
        assertThat(statuses).containsOnly(200);
        long azure = count("azure"), compat = count("compat");
        assertThat(azure + compat).isEqualTo(2000);
        assertThat(azure).isBetween(1440L, 1560L); // 75 % ± 3 %
        assertThat(compat).isBetween(440L, 560L);   // 25 % ± 3 %
        // the Azure double got deployment URLs with the api-version and the api-key header
        ReceivedRequest r = sim.received().stream().filter(q -> q.vendor().equals("azure")).findFirst().orElseThrow();
        assertThat(r.path()).isEqualTo("/azure/openai/deployments/gpt-4o-eu/chat/completions?api-version=2024-10-21");
        assertThat(r.headers()).containsEntry("api-key", SimKeys.AZURE).doesNotContainKey("authorization");
    }

    @Test
    void aFailingDeploymentLosesItsTrafficThenIsProbedBack() throws Exception {
        sim.queueFault("azure", "status=500;times=100000");
        // one at a time, so that each failure is known before the next call is routed; every call is answered: a
        // failed attempt on Azure is retried on the other deployment at once
        assertThat(send(40, 1)).containsOnly(200);
        // cooled after its 3rd failure in a row (routing.cooldown.shared_failures), not after 25 (LiteLLM #34836)
        assertThat(count("azure")).isEqualTo(3);
        assertThat(count("compat")).isEqualTo(40);
        sim.clearReceived();
        assertThat(send(40)).containsOnly(200);
        assertThat(count("compat")).isEqualTo(40);
        assertThat(count("azure")).isZero();
        // the configuration view (and the console's models screen) shows it cooling, its breaker open, until when
        JsonNode azureState = Json.parseOrNull(h.getAuthed("/api/v1/admin/config").body()).at("/models/team~1chat/deployments/0");
        assertThat(azureState.path("state").asText()).isEqualTo("cooling");
        assertThat(azureState.path("breaker").asText()).isEqualTo("open");
        assertThat(Instant.parse(azureState.path("cooling_until").asText())).isAfter(Instant.now());
        JsonNode compatState = Json.parseOrNull(h.getAuthed("/api/v1/admin/config").body()).at("/models/team~1chat/deployments/1");
        assertThat(compatState.path("breaker").asText()).isEqualTo("closed");
        assertThat(compatState.path("cooling_until").isNull()).isTrue();

        // healthy again: the next probe after the cooldown succeeds and it takes its share once more
        control("DELETE", "/_sim/faults");
        clock.advance(COOLDOWN.minusMillis(1));
        sim.clearReceived();
        assertThat(send(40)).containsOnly(200);
        assertThat(count("azure")).as("1 ms before the cooldown ends").isZero();
        clock.advanceMillis(1);
        Eventually.until("a probe sent to the deployment", () -> {
            assertThat(send(1)).containsOnly(200);
            return count("azure") > 0;
        });
        sim.clearReceived();
        assertThat(send(400)).containsOnly(200);
        assertThat(count("azure")).isBetween(288L, 312L);
    }

    @Test
    void theModelsListShowsTheConfiguredModelAndItsAliasWithTheirLimits() {
        JsonNode list = Json.parseOrNull(h.getAuthed("/api/v1/models").body());
        JsonNode model = null, alias = null;
        for (JsonNode m : list.path("data")) {
            if (m.path("id").asText().equals("team/chat")) model = m;
            if (m.path("id").asText().equals("team-chat")) alias = m;
        }
        assertThat(model).isNotNull();
        assertThat(model.path("context_window").asLong()).isEqualTo(128000);
        assertThat(model.path("max_output_tokens").asLong()).isEqualTo(16000);
        assertThat(model.path("vendor").asText()).isEqualTo("openai");
        assertThat(model.path("deployments")).hasSize(2);
        assertThat(alias.path("alias_of").asText()).isEqualTo("team/chat");
        assertThat(alias.path("context_window").asLong()).isEqualTo(128000);
    }

    @Test
    void theAdminConfigShowsDeploymentsWithSecretsMasked() {
        var r = h.getAuthed("/api/v1/admin/config");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).doesNotContain(SimKeys.AZURE).doesNotContain(SimKeys.defaults().openai());
        JsonNode c = Json.parseOrNull(r.body());
        assertThat(c.at("/providers/azure-eu/type").asText()).isEqualTo("azure-openai");
        assertThat(c.at("/providers/azure-eu/keys/0/key").asText()).startsWith("****");
        assertThat(c.at("/models/team~1chat/deployments/0/id").asText()).isEqualTo("azure-eu/gpt-4o-eu");
        assertThat(c.at("/models/team~1chat/deployments/0/weight").asDouble()).isEqualTo(3.0);
        // every declared setting, its variable, and whether a reload applies it
        assertThat(c.at("/settings/vendors.openai.api_key/value").asText()).startsWith("****");
        assertThat(c.at("/settings/vendors.openai.api_key/env").asText()).isEqualTo("OPENAI_API_KEY");
        assertThat(c.at("/settings/vendors.openai.api_key/applied_by_reload").asBoolean()).isTrue();
        assertThat(c.at("/settings/server.port/env").asText()).isEqualTo("GATEWAY_SERVER_PORT");
        assertThat(c.at("/settings/server.port/applied_by_reload").asBoolean()).isFalse();
        assertThat(c.at("/settings/timeouts.images_seconds/value").asLong()).isEqualTo(300);
    }

    @Test
    void theAdminConfigShowsAModelWithoutAPriceAsPriceNull() {
        var r = h.getAuthed("/api/v1/admin/config");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode unpriced = Json.parseOrNull(r.body()).at("/models/team~1unpriced");
        assertThat(unpriced.has("price")).isTrue();
        assertThat(unpriced.path("price").isNull()).isTrue();
        assertThat(unpriced.at("/deployments/0/id").asText()).isEqualTo("vllm/llama-3.3-70b");
        assertThat(Json.parseOrNull(r.body()).at("/models/team~1chat/price/input").asDouble()).isEqualTo(1.0);
    }

    @Test
    void credentialsInABaseUrlAreShownNeitherByTheAdminApiNorOnMetrics() {
        // a call makes the provider's connection pool, whose gauge /metrics then shows
        h.postAuthed("/api/v1/chat/completions", "{\"model\":\"team/proxied\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        String metrics = h.get("/metrics").body();
        assertThat(metrics).contains("gateway_upstream_pool_calls{provider=\"proxied\"}");
        String config = h.getAuthed("/api/v1/admin/config").body();
        for (String shown : List.of(metrics, config)) {
            assertThat(shown).doesNotContain("proxyuser", "s3cretPassw0rd", PROXY_PATH_TOKEN);
        }
        // the rest of the address stays readable for the operator
        assertThat(Json.parseOrNull(config).at("/providers/proxied/base_url").asText())
                .isEqualTo(sim.baseUrl().replace("://", "://****@") + "/****/v1");
        assertThat(metrics).doesNotContain(sim.baseUrl().substring(sim.baseUrl().indexOf("://") + 3));
    }
}
