package dev.modelgateway.e2e.clouds;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.GoogleServiceAccounts;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One public model served by vendor A directly (at its catalogue price), by Bedrock (InvokeModel and Converse) and by
 * Vertex AI, each cloud
 * deployment at its own price (docs/clouds.md, "Prices"): every ledger row costs its tokens at the prices of the
 * deployment that served it, a cached prompt's reads included, and the admin API shows those prices.
 */
@E2e
class DeploymentPricesTest {
    static final String MODEL = "platform/vendorA-sonnet-4.5";
    static final String DIRECT = "anthropic/vendorA-sonnet-4.5";
    static final String BEDROCK = "aws/us.anthropic.claude-sonnet-4-5-v1:0";
    static final String CONVERSE = "aws/anthropic.claude-sonnet-4-5-v1:0";
    static final String VERTEX = "gcp/claude-sonnet-4-5@20250929";
    /** Per million tokens: input, output, cache_read, cache_write_5m, cache_write_1h (the catalogue's for the direct one). */
    static final Map<String, List<String>> PRICES = Map.of(
            DIRECT, List.of("3.00", "15.00", "0.30", "3.75", "6.00"),
            BEDROCK, List.of("3.30", "16.50", "0.33", "4.125", "6.60"),
            CONVERSE, List.of("3.10", "15.50", "0.31", "3.875", "6.20"),
            VERTEX, List.of("2.70", "13.50", "0.27", "3.375", "5.40"));
    static final String[] COLUMNS = {"input_tokens", "output_tokens", "cache_read_tokens", "cache_write_5m_tokens",
            "cache_write_1h_tokens"};
    static Vertx vertx;
    static VendorSimulator sim;
    static GatewayHarness h;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0, SimKeys.defaults()).await();
        Path dir = Files.createTempDirectory("prices");
        var account = GoogleServiceAccounts.create(dir, "gateway", sim.baseUrl() + "/oauth2/token");
        sim.googleOAuth().trustServiceAccount(account.clientEmail(), account.publicKey());
        sim.acceptVertexTokens(sim.googleTokens());
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, GatewayHarness.simVendors(sim) + """
                providers:
                  aws:
                    type: bedrock
                    region: us-east-1
                    base_url: %1$s
                    aws: {source: static, access_key_id: AKIDSIMBEDROCK, secret_access_key: sim-bedrock-secret}
                  gcp:
                    type: vertex
                    project: sim-project
                    location: us-east5
                    base_url: %1$s
                    google: {source: service_account, credentials_file: %2$s}
                models:
                  platform/vendorA-sonnet-4.5:
                    deployments:
                      - {provider: anthropic, model: vendorA-sonnet-4.5}
                      - provider: aws
                        model: us.anthropic.claude-sonnet-4-5-v1:0
                        capabilities: {prompt_cache: true}
                        price: {input: 3.30, output: 16.50, cache_read: 0.33, cache_write_5m: 4.125, cache_write_1h: 6.60}
                      - provider: aws
                        model: anthropic.claude-sonnet-4-5-v1:0
                        api: converse
                        capabilities: {prompt_cache: true}
                        price: {input: 3.10, output: 15.50, cache_read: 0.31, cache_write_5m: 3.875, cache_write_1h: 6.20}
                      - provider: gcp
                        model: claude-sonnet-4-5@20250929
                        capabilities: {prompt_cache: true}
                        price: {input: 2.70, output: 13.50, cache_read: 0.27, cache_write_5m: 3.375, cache_write_1h: 5.40}
                """.formatted(sim.baseUrl(), account.file()));
        h = GatewayHarness.builder().simulator(sim).configFile(file).start();
    }

    @AfterAll
    static void stop() {
        h.close();
        sim.close().await();
        vertx.close().await();
    }

    /** What a row should cost: each token class at the deployment's price, per million, as an auditor would add it. */
    static long expectedE10(Map<String, Object> row) {
        List<String> price = PRICES.get((String) row.get("deployment"));
        BigDecimal micro = BigDecimal.ZERO;
        for (int i = 0; i < COLUMNS.length; i++) {
            micro = micro.add(new BigDecimal(price.get(i)).multiply(BigDecimal.valueOf(tokens(row, COLUMNS[i]))));
        }
        return micro.movePointLeft(6).setScale(10, RoundingMode.HALF_UP).unscaledValue().longValueExact();
    }

    static long tokens(Map<String, Object> row, String column) {
        return ((Number) row.get(column)).longValue();
    }

    @Test
    void eachRowIsBilledAtThePricesOfTheDeploymentThatServedItCacheReadsIncluded() {
        Instant from = Instant.now().minusSeconds(60);
        String cached = """
                {"model":"%s","max_tokens":100,
                 "system":[{"type":"text","text":"%s","cache_control":{"type":"ephemeral"}}],
                 "messages":[{"role":"user","content":"Hello gateway"}]}""".formatted(MODEL, "You are a careful assistant. ".repeat(200));
        // equal weights: the rotation gives each deployment two of the eight calls, so each sees the prefix again
        for (int i = 0; i < 8; i++) {
            HttpResponse<String> r = h.postAuthed("/api/v1/messages", cached, "anthropic-version", "2023-06-01");
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        }
        List<Map<String, Object>> rows = h.ledger(MODEL, 8);
        assertThat(rows).hasSize(8);
        Set<String> served = new TreeSet<>();
        Map<String, Long> cacheReads = new HashMap<>();
        for (Map<String, Object> row : rows) {
            String deployment = (String) row.get("deployment");
            served.add(deployment);
            cacheReads.merge(deployment, tokens(row, "cache_read_tokens"), Long::sum);
            assertThat(tokens(row, "cost_usd_e10")).as("the row of %s: %s", deployment, row).isEqualTo(expectedE10(row));
        }
        assertThat(served).containsExactlyInAnyOrder(DIRECT, BEDROCK, CONVERSE, VERTEX);
        assertThat(cacheReads.get(BEDROCK)).as("a cached prompt through Bedrock reports its cache reads").isPositive();
        assertThat(cacheReads.get(CONVERSE)).as("through Converse").isPositive();
        assertThat(cacheReads.get(VERTEX)).as("and through Vertex").isPositive();
        Map<String, Object> bedrockRead = rows.stream().filter(r -> BEDROCK.equals(r.get("deployment")))
                .filter(r -> tokens(r, "cache_read_tokens") > 0).findFirst().orElseThrow();
        assertThat(tokens(bedrockRead, "cost_usd_e10")).as("not the catalogue's prices")
                .isNotEqualTo(expectedE10(withDeployment(bedrockRead, DIRECT)));

        // the usage report by deployment: what each way of serving the model cost
        Map<String, Long> byDeployment = new HashMap<>();
        rows.forEach(row -> byDeployment.merge((String) row.get("deployment"), expectedE10(row), Long::sum));
        HttpResponse<String> usage = h.getAuthed("/api/v1/admin/usage?group_by=deployment&from=" + from.getEpochSecond());
        assertThat(usage.statusCode()).as(usage.body()).isEqualTo(200);
        Map<String, BigDecimal> reported = new HashMap<>();
        Json.parseOrNull(usage.body()).path("data").forEach(g ->
                reported.put(g.path("deployment").asText(), new BigDecimal(g.path("cost_usd").asText())));
        assertThat(reported).containsOnlyKeys(byDeployment.keySet());
        byDeployment.forEach((d, e10) -> assertThat(reported.get(d)).as(d).isEqualByComparingTo(BigDecimal.valueOf(e10, 10)));

        // a re-pricing with the configuration in force keeps each deployment's own prices
        HttpResponse<String> reprice = h.postAuthed("/api/v1/admin/reprice",
                "{\"from\":\"" + from + "\",\"to\":\"" + Instant.now().plusSeconds(60) + "\"}");
        assertThat(reprice.statusCode()).as(reprice.body()).isEqualTo(200);
        assertThat(Json.parseOrNull(reprice.body()).path("repriced").asLong()).isZero();
        for (Map<String, Object> row : h.ledger(MODEL, 8)) assertThat(tokens(row, "cost_usd_e10")).isEqualTo(expectedE10(row));
    }

    private static Map<String, Object> withDeployment(Map<String, Object> row, String deployment) {
        Map<String, Object> copy = new HashMap<>(row);
        copy.put("deployment", deployment);
        return copy;
    }

    @Test
    void theAdminConfigShowsADeploymentsOwnPrice() {
        HttpResponse<String> r = h.getAuthed("/api/v1/admin/config");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode deployments = Json.parseOrNull(r.body()).path("models").path(MODEL).path("deployments");
        Map<String, JsonNode> byId = new HashMap<>();
        deployments.forEach(d -> byId.put(d.path("id").asText(), d));
        assertThat(byId).containsOnlyKeys(DIRECT, BEDROCK, CONVERSE, VERTEX);
        assertThat(byId.get(DIRECT).has("price")).as("priced as its model").isFalse();
        assertThat(byId.get(BEDROCK).at("/price/cache_read").decimalValue()).isEqualByComparingTo("0.33");
        assertThat(byId.get(VERTEX).at("/price/input").decimalValue()).isEqualByComparingTo("2.70");
    }
}
