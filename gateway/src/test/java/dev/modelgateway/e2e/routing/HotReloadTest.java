package dev.modelgateway.e2e.routing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two running gateways on one configuration file: a model added and priced in the file answers on both and is billed
 * at its price once they have picked the file up (watched, no restart), while a stream started before the change runs
 * to its end; an invalid file (a typo in any section included) is refused naming the field, and the configuration in
 * force stays.
 */
@E2e
class HotReloadTest {
    Vertx vertx;
    VendorSimulator sim;
    Path file;
    GatewayHarness a;
    GatewayHarness b;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, GatewayHarness.simVendors(sim));
        a = GatewayHarness.builder().simulator(sim).configFile(file).start();
        b = GatewayHarness.builder().simulator(sim).configFile(file).start();
    }

    @AfterEach
    void stop() {
        if (b != null) b.close();
        if (a != null) a.close();
        sim.close().await();
        vertx.close().await();
    }

    static String added(String input, String output) {
        return """
                models:
                  team/late:
                    capabilities: [chat]
                    context_window: 64000
                    max_output_tokens: 4000
                    price: {input: %s, output: %s}
                    deployments: [{provider: openai, model: late-upstream}]
                """.formatted(input, output);
    }

    static boolean lists(GatewayHarness h, String id) {
        JsonNode list = Json.parseOrNull(h.getAuthed("/api/v1/models").body());
        for (JsonNode m : list.path("data")) if (m.path("id").asText().equals(id)) return true;
        return false;
    }

    static JsonNode chat(GatewayHarness h, String model) {
        var r = h.postAuthed("/api/v1/chat/completions", "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi there\"}]}");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Json.parseOrNull(r.body());
    }

    @Test
    void aModelAddedToTheFileAnswersOnBothInstancesAtItsPriceWithoutBreakingAStream() throws Exception {
        // a stream of about 4 s, started before the change
        CompletableFuture<HttpResponse<String>> stream = HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(
                        URI.create(a.openAiBaseUrl() + "/chat/completions")).header("authorization", "Bearer " + GatewayHarness.KEY)
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"platform/vendorB-5.5\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":"
                                + "\"[[sim:chunk_delay_ms=250]] one two three four five six seven eight\"}]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        sim.awaitReceived(log -> !log.isEmpty(), 10_000).await();
        assertThat(lists(a, "team/late")).isFalse();

        Files.writeString(file, GatewayHarness.simVendors(sim) + added("1000", "2000"));
        Eventually.until("both instances list the new model", Duration.ofSeconds(30),
                () -> lists(a, "team/late") && lists(b, "team/late"));
        assertThat(stream.isDone()).as("the stream is still running").isFalse();
        for (GatewayHarness h : List.of(a, b)) {
            JsonNode answer = chat(h, "team/late");
            assertThat(answer.at("/choices/0/message/content").asText()).startsWith("Hello from late-upstream.");
            long prompt = answer.at("/usage/prompt_tokens").asLong(), completion = answer.at("/usage/completion_tokens").asLong();
            Map<String, Object> row = h.ledger("team/late", 1).getFirst();
            // $1000 and $2000 per million tokens, in units of 1e-10 dollars
            long expected = BigDecimal.valueOf(prompt * 1000 + completion * 2000).movePointLeft(6).movePointRight(10).longValueExact();
            assertThat(((Number) row.get("cost_usd_e10")).longValue()).isEqualTo(expected);
        }

        HttpResponse<String> streamed = stream.get();
        assertThat(streamed.statusCode()).isEqualTo(200);
        assertThat(streamed.body()).contains("eight").contains("data: [DONE]");
    }

    @Test
    void anInvalidFileIsRefusedNamingTheFieldAndTheRunningConfigurationStays() throws Exception {
        // a setting only a restart applies is named, the rest applied
        Files.writeString(file, GatewayHarness.simVendors(sim) + added("1", "2") + "server:\n  max_connections_per_client: 7\n");
        var applied = a.postAuthed("/api/v1/admin/reload", "");
        assertThat(applied.statusCode()).isEqualTo(200);
        assertThat(Json.parseOrNull(applied.body()).path("restart_needed").toString()).isEqualTo("[\"server.max_connections_per_client\"]");
        assertThat(lists(a, "team/late")).isTrue();

        // a typo in any section is refused naming the key and the nearest known one
        Files.writeString(file, GatewayHarness.simVendors(sim) + added("1", "2") + "accounts:\n  databse_url: jdbc:sqlite:x.db\n");
        var typo = a.postAuthed("/api/v1/admin/reload", "");
        assertThat(typo.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(typo.body()).at("/error/message").asText())
                .contains("accounts.databse_url: unknown setting; did you mean `database_url`?");
        Files.writeString(file, GatewayHarness.simVendors(sim).replace("openai: {", "openai: {max_conections: 5, ") + added("1", "2"));
        var vendorTypo = a.postAuthed("/api/v1/admin/reload", "");
        assertThat(vendorTypo.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(vendorTypo.body()).at("/error/message").asText())
                .contains("vendors.openai.max_conections: unknown setting; did you mean `max_connections`?");

        Files.writeString(file, GatewayHarness.simVendors(sim) + added("one dollar", "2"));
        var refused = a.postAuthed("/api/v1/admin/reload", "");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(refused.body()).at("/error/message").asText()).contains("models.team/late").contains("price.input");
        chat(a, "team/late");

        Files.writeString(file, GatewayHarness.simVendors(sim) + "models:\n  team/late:\n    deployments: [{provider: nowhere, model: x}]\n");
        var unknown = a.postAuthed("/api/v1/admin/reload", "");
        assertThat(Json.parseOrNull(unknown.body()).at("/error/message").asText())
                .contains("models.team/late.deployments[0].provider").contains("nowhere");

        Files.writeString(file, "models: [\n");
        var yaml = a.postAuthed("/api/v1/admin/reload", "");
        assertThat(Json.parseOrNull(yaml.body()).at("/error/message").asText()).contains("line");
        chat(a, "team/late");
    }

    /** Any variable of the test's environment stands for a secret: its value must show nowhere. */
    @Test
    void neitherARefusedReloadNorTheAdminConfigShowsWhatAVariableBroughtIn() throws Exception {
        String secret = System.getenv("PATH");
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger reloads = (Logger) LoggerFactory.getLogger("dev.modelgateway.server.ConfigReload");
        reloads.addAppender(log);
        Files.writeString(file, GatewayHarness.simVendors(sim) + """
                providers:
                  proxy:
                    type: openai-compatible
                    base_url: %s/openai/v1
                    connect_timeout_seconds: "${PATH}"
                """.formatted(sim.baseUrl()));
        var refused = a.postAuthed("/api/v1/admin/reload", "");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.body()).contains("providers.proxy.connect_timeout_seconds", "${PATH}").doesNotContain(secret);
        reloads.detachAppender(log);
        assertThat(log.list).isNotEmpty().allSatisfy(e -> assertThat(e.getFormattedMessage()).doesNotContain(secret));

        Files.writeString(file, GatewayHarness.simVendors(sim) + added("1", "2").replace("model: late-upstream}",
                "model: late-upstream, region: \"${PATH}\", tags: [\"t-${PATH}\"]}"));
        assertThat(a.postAuthed("/api/v1/admin/reload", "").statusCode()).isEqualTo(200);
        String config = a.getAuthed("/api/v1/admin/config").body();
        assertThat(config).doesNotContain(secret);
        JsonNode deployment = Json.parseOrNull(config).at("/models/team~1late/deployments/0");
        assertThat(deployment.path("region").asText()).isEqualTo("${PATH}");
        assertThat(deployment.path("tags").get(0).asText()).isEqualTo("t-${PATH}");
    }

    /**
     * A mistyped key variable must not take a vendor down: a reload that leaves a model with no usable deployment is
     * refused naming the unset variable, through the API and the watched file; a provider switched off on purpose
     * ({@code enabled: false}) is applied.
     */
    @Test
    void aReloadThatLeavesAModelWithoutAKeyIsRefusedNamingTheVariableUnlessTheProviderIsSwitchedOff() throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger reloads = (Logger) LoggerFactory.getLogger("dev.modelgateway.server.ConfigReload");
        reloads.addAppender(log);
        String typo = GatewayHarness.simVendors(sim).replace("api_key: " + SimKeys.defaults().openai(), "api_key: ${OPENAI_KEY_TYPO}");
        assertThat(typo).contains("${OPENAI_KEY_TYPO}");
        Files.writeString(file, typo);
        var refused = a.postAuthed("/api/v1/admin/reload", "");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
        assertThat(refused.body()).contains("invalid_configuration", "platform/vendorB-5.5", "${OPENAI_KEY_TYPO}", "enabled: false");
        // the watched file is refused too, with a log line naming the variable
        Eventually.until("the watched change refused", () -> log.list.stream()
                .anyMatch(e -> e.getFormattedMessage().contains("refused") && e.getFormattedMessage().contains("${OPENAI_KEY_TYPO}")));
        reloads.detachAppender(log);
        for (GatewayHarness h : List.of(a, b)) chat(h, "platform/vendorB-5.5");

        Files.writeString(file, typo + "providers:\n  openai: {enabled: false}\n");
        var applied = a.postAuthed("/api/v1/admin/reload", "");
        assertThat(applied.statusCode()).as(applied.body()).isEqualTo(200);
        assertThat(a.postAuthed("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":"
                + "\"user\",\"content\":\"hi\"}]}").statusCode()).isEqualTo(503);
        chat(a, "vendorA-sonnet-5");
    }

    /** The audit log's configuration reloads, newest first: each as "actor: its change". */
    static List<JsonNode> reloads(GatewayHarness h) {
        JsonNode log = Json.parseOrNull(h.getAuthed("/api/v1/admin/audit").body());
        List<JsonNode> out = new java.util.ArrayList<>();
        log.path("data").forEach(e -> {
            if (e.path("action").asText().equals("config.reload")) out.add(e);
        });
        return out;
    }

    @Test
    void everyAppliedReloadIsAnAuditEntryWithItsActorAndWhatChanged() throws Exception {
        Files.writeString(file, GatewayHarness.simVendors(sim) + added("1", "2"));
        assertThat(a.postAuthed("/api/v1/admin/reload", "").statusCode()).isEqualTo(200);
        // the reload by the API, and the watched file's own (whichever came first found the change)
        Eventually.until("both reloads audited", () -> reloads(a).stream().map(e -> e.path("actor").asText()).toList()
                .containsAll(List.of("master", "config-file")));
        List<JsonNode> entries = reloads(a);
        assertThat(entries).anySatisfy(e -> {
            assertThat(e.at("/after/models/added").toString()).contains("team/late");
            assertThat(e.at("/after/deployments/added").toString()).contains("team/late → openai/late-upstream");
            assertThat(e.path("target_type").asText()).isEqualTo("config");
        });

        // a price changed in the file alone: the watched file's reload, by config-file
        Files.writeString(file, GatewayHarness.simVendors(sim) + added("3", "4"));
        Eventually.until("the repricing reload audited", () -> reloads(a).stream().anyMatch(e ->
                e.path("actor").asText().equals("config-file") && e.at("/after/prices_changed").toString().contains("team/late")));
        assertThat(reloads(b)).anySatisfy(e -> assertThat(e.path("actor").asText()).isEqualTo("config-file"));
    }
}
