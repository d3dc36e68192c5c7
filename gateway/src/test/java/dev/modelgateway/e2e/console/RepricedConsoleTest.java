package dev.modelgateway.e2e.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * After a reprice every screen of the console reads the same figure for a key: its spent (the admin API's, the
 * console's own) and its cost in the usage charts. Before, the charts' rollups kept the costs they had added before
 * the reprice, and the console showed a key's "spent $0.001148" above "Cost $0.002295".
 */
@E2e
class RepricedConsoleTest {
    static final String MODEL = "team/priced";

    Vertx vertx;
    VendorSimulator sim;
    Path file;
    GatewayHarness h;
    AdminApi admin;

    static String config(VendorSimulator sim, String input, String output) {
        return GatewayHarness.simVendors(sim) + """
                models:
                  team/priced:
                    capabilities: [chat]
                    context_window: 64000
                    max_output_tokens: 4000
                    price: {input: %s, output: %s}
                    deployments: [{provider: openai, model: priced-upstream}]
                """.formatted(input, output);
    }

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
        file = Files.createTempFile("gateway", ".yaml");
        Files.writeString(file, config(sim, "1000", "2000"));
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
        admin = new AdminApi(h);
    }

    @AfterEach
    void stop() throws Exception {
        if (h != null) h.close();
        sim.close().await();
        vertx.close().await();
        Files.deleteIfExists(file);
    }

    @Test
    void aKeysSpentAndItsCostAgreeAfterAReprice() throws Exception {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"repriced\"}");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = h.post("/api/v1/chat/completions", "{\"model\":\"" + MODEL
                    + "\",\"messages\":[{\"role\":\"user\",\"content\":\"hi " + i + "\"}]}", "authorization", "Bearer " + key.secret());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        BigDecimal before = Eventually.value("the calls in the charts", Duration.ofSeconds(60), () -> cost(key.id()),
                c -> c.signum() > 0 && c.compareTo(spent(key.id())) == 0);

        // the operator's price doubles; the calls made at the old one are priced again
        Files.writeString(file, config(sim, "2000", "4000"));
        assertThat(h.postAuthed("/api/v1/admin/reload", "").statusCode()).isEqualTo(200);
        Instant now = Instant.now();
        HttpResponse<String> repriced = admin.call("POST", "/api/v1/admin/reprice", "{\"from\":\"" + now.minus(Duration.ofDays(1))
                + "\",\"to\":\"" + now.plus(Duration.ofHours(1)) + "\"}");
        assertThat(repriced.statusCode()).as(repriced.body()).isEqualTo(200);
        BigDecimal after = new BigDecimal(Json.parseOrNull(repriced.body()).path("cost_after_usd").asText());
        assertThat(after).isEqualByComparingTo(before.multiply(BigDecimal.TWO));

        assertThat(Eventually.value("the spent figures", Duration.ofSeconds(30), () -> spent(key.id()), s -> s.compareTo(after) == 0))
                .isEqualByComparingTo(after);
        assertThat(Eventually.value("the charts' cost", Duration.ofSeconds(30), () -> cost(key.id()), c -> c.compareTo(after) == 0))
                .isEqualByComparingTo(after);
        JsonNode me = get(key.secret(), "/api/v1/console/me");
        assertThat(new BigDecimal(me.path("spent_usd").asText())).as("the key's own console").isEqualByComparingTo(after);
    }

    /** The key's spent as the console's keys screen shows it (the admin API's). */
    BigDecimal spent(String id) {
        return new BigDecimal(admin.get("/api/v1/admin/keys/" + id).path("spent_usd").asText());
    }

    /** The key's cost in the console's usage charts (30 days by day). */
    BigDecimal cost(String id) {
        BigDecimal sum = BigDecimal.ZERO;
        for (JsonNode row : get(GatewayHarness.KEY, "/api/v1/console/usage?dimension=key&key=" + id).path("data")) {
            sum = sum.add(new BigDecimal(row.path("cost_usd").asText()));
        }
        return sum;
    }

    JsonNode get(String key, String path) {
        HttpResponse<String> r = h.get(path, "authorization", "Bearer " + key);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return Json.parseOrNull(r.body());
    }
}
