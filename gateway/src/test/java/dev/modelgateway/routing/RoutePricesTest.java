package dev.modelgateway.routing;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.GatewayConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A deployment's own price (docs/clouds.md, "Prices"): read, refused naming its field, and what the ledger prices with. */
class RoutePricesTest {
    static final String MODEL = "platform/vendorA-sonnet-5";

    @TempDir
    Path dir;

    final CircuitBreakers breakers = new CircuitBreakers(new CircuitBreaker.Thresholds(3, Duration.ofSeconds(60)));

    Routes routes(String yaml) throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, yaml);
        GatewayConfig config = new ConfigLoader(Map.<String, String>of()::get).load(file);
        return Routes.build(config, Catalogue.load(config), breakers);
    }

    static final String PRICED = """
            providers:
              aws: {type: bedrock, region: us-east-1, api_key: k}
              aws-key2: {type: bedrock, region: us-east-1, keys: [k1, k2]}
            models:
              platform/vendorA-sonnet-5:
                deployments:
                  - {provider: anthropic, model: claude-sonnet-5}
                  - provider: aws
                    model: us.anthropic.claude-sonnet-5-v1:0
                    price: {input: 3.30, output: 16.50, cache_read: 0.33, cache_write_5m: 4.125, cache_write_1h: 6.60}
                  - {provider: aws-key2, model: "arn:aws:bedrock:us-east-1:123456789012:provisioned-model/pt", price: {input: 0, output: 0}}
            """;

    @Test
    void aDeploymentsPriceIsReadByThePricesReaderAndCarriedToEachOfItsKeys() throws Exception {
        Routes r = routes(PRICED);
        var ds = r.deployments(r.catalogue().resolve(MODEL));
        assertThat(ds).extracting(Deployment::id).containsExactly("anthropic/claude-sonnet-5", "aws/us.anthropic.claude-sonnet-5-v1:0",
                "aws-key2/arn:aws:bedrock:us-east-1:123456789012:provisioned-model/pt#1", "aws-key2/arn:aws:bedrock:us-east-1:123456789012:provisioned-model/pt#2");
        assertThat(ds.get(0).price()).as("none of its own: the model's").isNull();
        ModelPrice regional = ds.get(1).price();
        assertThat(regional.input()).isEqualByComparingTo("3.30");
        assertThat(regional.cacheRead()).isEqualByComparingTo("0.33");
        assertThat(regional.cacheWrite1h()).isEqualByComparingTo("6.60");
        assertThat(regional.reasoning()).as("reasoning defaults to output, as in the catalogue").isEqualByComparingTo("16.50");
        assertThat(ds.get(2).price().cacheRead()).as("cache prices default to input").isEqualByComparingTo("0");
        assertThat(ds.get(3).price()).isEqualTo(ds.get(2).price());
    }

    @Test
    void aCallIsPricedAtItsDeploymentsOwnPriceElseItsModels() throws Exception {
        Routes r = routes(PRICED);
        RoutePrices prices = RoutePrices.of(r);
        ModelPrice model = r.catalogue().priceOf(MODEL);
        Usage u = new Usage(1_000_000, 1_000_000, 1_000_000, 1_000_000, 1_000_000, 0);
        assertThat(prices.priceOf(MODEL, "aws/us.anthropic.claude-sonnet-5-v1:0").cost(u))
                .isEqualByComparingTo("30.855"); // 3.30 + 0.33 + 4.125 + 6.60 + 16.50
        assertThat(prices.priceOf(MODEL, "aws-key2/arn:aws:bedrock:us-east-1:123456789012:provisioned-model/pt#2").cost(u)).isZero();
        assertThat(prices.priceOf(MODEL, "anthropic/claude-sonnet-5")).isSameAs(model);
        assertThat(prices.priceOf(MODEL, null)).as("a row that names no deployment").isSameAs(model);
        assertThat(prices.priceOf(MODEL, "gone/after-a-reload")).isSameAs(model);
        assertThat(prices.priceOf("platform/vendorA-opus-4.8", "aws/us.anthropic.claude-sonnet-5-v1:0"))
                .as("another model's deployment of the same id is not this one").isSameAs(r.catalogue().priceOf("platform/vendorA-opus-4.8"));
    }

    @Test
    void theTableAndItsVersionCoverTheDeploymentsPricesAndAreTheCataloguesWithoutAny() throws Exception {
        Routes plain = routes("""
                providers:
                  aws: {type: bedrock, region: us-east-1, api_key: k}
                models:
                  platform/vendorA-sonnet-5:
                    deployments: [{provider: aws, model: us.anthropic.claude-sonnet-5-v1:0}]
                """);
        assertThat(RoutePrices.of(plain).version()).isEqualTo(plain.catalogue().version());
        assertThat(RoutePrices.of(plain).table()).isEqualTo(plain.catalogue().table());

        Routes priced = routes(PRICED);
        RoutePrices prices = RoutePrices.of(priced);
        assertThat(prices.version()).startsWith("pt-").isNotEqualTo(priced.catalogue().version());
        assertThat(prices.table()).containsKey(MODEL).containsKey(MODEL + " @ aws/us.anthropic.claude-sonnet-5-v1:0")
                .doesNotContainKey(MODEL + " @ anthropic/claude-sonnet-5");
        Routes cheaper = routes(PRICED.replace("cache_read: 0.33", "cache_read: 0.30"));
        assertThat(RoutePrices.of(cheaper).version()).as("a deployment's price changed: another table")
                .isNotEqualTo(prices.version());
        assertThat(RoutePrices.of(routes(PRICED)).version()).isEqualTo(prices.version());
    }

    @Test
    void theBookInForceFollowsAReload() throws Exception {
        AtomicReference<Routes> current = new AtomicReference<>(routes(PRICED));
        var book = RoutePrices.inForce(current::get);
        String before = book.version();
        assertThat(book.priceOf(MODEL, "aws/us.anthropic.claude-sonnet-5-v1:0").input()).isEqualByComparingTo("3.30");
        current.set(routes(PRICED.replace("input: 3.30", "input: 3.60")));
        assertThat(book.priceOf(MODEL, "aws/us.anthropic.claude-sonnet-5-v1:0").input()).isEqualByComparingTo("3.60");
        assertThat(book.version()).isNotEqualTo(before);
    }

    @Test
    void aReloadsAuditSummaryNamesTheDeploymentsWhosePriceChanged() throws Exception {
        Routes before = routes(PRICED);
        Routes after = routes(PRICED.replace("input: 3.30", "input: 3.60"));
        assertThat(RoutesChange.between(before, after).path("prices_changed").toString())
                .isEqualTo("[\"" + MODEL + " @ aws/us.anthropic.claude-sonnet-5-v1:0\"]");
        assertThat(RoutesChange.between(before, routes(PRICED)).path("prices_changed").isEmpty()).isTrue();
    }

    @Test
    void aBadPriceIsRefusedNamingItsField() {
        String at = "models.platform/vendorA-sonnet-5.deployments[1].price";
        assertThatThrownBy(() -> routes(PRICED.replace("input: 3.30, ", "")))
                .hasMessageContaining(at + ".input is required");
        assertThatThrownBy(() -> routes(PRICED.replace("output: 16.50", "output: -1")))
                .hasMessageContaining(at + ".output must be a non-negative number of dollars");
        assertThatThrownBy(() -> routes(PRICED.replace("cache_read: 0.33", "cache_reads: 0.33")))
                .hasMessageContaining(at + ": unknown price field 'cache_reads'");
        assertThatThrownBy(() -> routes(PRICED.replace("price: {input: 0, output: 0}", "price: cheap")))
                .hasMessageContaining("models.platform/vendorA-sonnet-5.deployments[2].price must be an object of prices or the word unknown");
    }
}
