package dev.modelgateway.catalogue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CatalogueTest {
    final Catalogue catalogue = Catalogue.loadDefault(Map.of("platform/vendorA-sonnet-5", "claude-sonnet-5"));

    @Test
    void upstreamIdDefaultsToTheIdWithoutPrefixAndCanBeOverridden() {
        assertThat(catalogue.resolve("platform/vendorB-5.5").upstreamId()).isEqualTo("vendorB-5.5");
        assertThat(catalogue.resolve("platform/vendorA-sonnet-5").upstreamId()).isEqualTo("claude-sonnet-5");
        assertThat(catalogue.resolve("vendorD-plus-latest").vendor()).isEqualTo(Vendor.DASHSCOPE);
    }

    @Test
    void aliasesAndUnavailableNames() {
        assertThat(catalogue.resolve("vendorB-5.6").id()).isEqualTo("platform/vendorB-5.6-sol");
        assertThat(catalogue.resolve("vendorB-6-luna").id()).isEqualTo("platform/vendorB-6-luna");
        assertThatThrownBy(() -> catalogue.resolve("vendorB-6")).isInstanceOf(GatewayException.class)
                .satisfies(e -> assertThat(((GatewayException) e).status()).isEqualTo(404));
    }

    @Test
    void thinkingPoliciesFollowSpec23() {
        assertThat(catalogue.resolve("platform/vendorA-sonnet-5").thinking()).isEqualTo(new ThinkingPolicy(false, true));
        assertThat(catalogue.resolve("platform/vendorA-opus-4.8").thinking()).isEqualTo(new ThinkingPolicy(false, false));
        assertThat(catalogue.resolve("platform/vendorA-opus-4.7").thinking()).isEqualTo(new ThinkingPolicy(false, false));
        assertThat(catalogue.resolve("platform/vendorA-sonnet-4.5").thinking().budgetAllowed()).isTrue();
    }

    @Test
    void cacheReadsCostAtMostAThirdOfInputAndUsuallyTenPercent() {
        for (ModelEntry m : catalogue.models()) {
            ModelPrice p = m.price();
            if (p.input().signum() > 0 && m.has("chat")) {
                assertThat(p.cacheRead()).as(m.id()).isLessThanOrEqualTo(p.input().divide(BigDecimal.valueOf(3), RoundingMode.UP));
            }
        }
        ModelPrice sonnet = catalogue.priceOf("platform/vendorA-sonnet-5");
        // 1M uncached input at $3 + 1M cache reads at $0.30 + 1M 1h writes at $6 + 1M output at $15
        assertThat(sonnet.cost(new Usage(1_000_000, 1_000_000, 0, 1_000_000, 1_000_000, 0)))
                .isEqualByComparingTo("24.30");
    }

    @Test
    void everyModelHasAVendorPriceAndContextWindow() {
        assertThat(catalogue.models()).hasSizeGreaterThan(20).allSatisfy(m -> {
            if (m.kind() == ModelKind.CHAT || m.kind() == ModelKind.EMBEDDING) {
                assertThat(m.contextWindow()).as(m.id()).isPositive();
            }
            assertThat(m.price()).as(m.id()).isNotNull();
        });
    }

    @Test
    void aModelWithoutAPriceHasNoneAndUnknownIsExplicit() throws Exception {
        Catalogue c = Catalogue.parse(new ObjectMapper(new YAMLFactory())
                .readTree("""
                        models:
                          - {id: platform/priced, vendor: anthropic, price: {input: 1, output: 2}}
                          - {id: platform/unpriced, vendor: anthropic}
                          - {id: platform/unknown, vendor: anthropic, price: unknown}
                        """), Map.of());
        assertThat(c.priceOf("platform/priced").cost(new Usage(1_000_000, 0, 0, 0, 1_000_000, 0))).isEqualByComparingTo("3");
        assertThat(c.priceOf("platform/unpriced")).as("no price is not $0").isNull();
        assertThat(c.priceOf("platform/unknown")).isSameAs(ModelPrice.UNKNOWN);
        assertThat(c.priceOf("platform/not-in-the-catalogue")).isNull();
        assertThat(c.version()).matches("pt-[0-9a-f]{12}").isNotEqualTo(catalogue.version());
        assertThat(Catalogue.loadDefault(Map.of()).version()).as("same prices, same version").isEqualTo(catalogue.version());
        assertThatThrownBy(() -> Catalogue.parse(new ObjectMapper(
                new YAMLFactory()).readTree(
                "models: [{id: platform/x, vendor: anthropic, price: {input: 1}}]"), Map.of()))
                .hasMessageContaining("platform/x").hasMessageContaining("price.output is required");
    }
}
