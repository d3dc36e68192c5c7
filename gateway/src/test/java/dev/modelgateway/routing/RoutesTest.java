package dev.modelgateway.routing;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.testing.TestClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Deployments built from providers, the weighted rotation, and the choice around cooldowns. */
class RoutesTest {
    @TempDir
    Path dir;

    final CircuitBreakers breakers = new CircuitBreakers(new CircuitBreaker.Thresholds(3, Duration.ofSeconds(60)));

    Routes routes(String yaml) throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, yaml);
        GatewayConfig config = new ConfigLoader(Map.<String, String>of()::get).load(file);
        return Routes.build(config, Catalogue.load(config), breakers);
    }

    static final String TWO = """
            providers:
              b2: {type: openai-compatible, base_url: http://local:8000/v1}
            models:
              team/chat:
                deployments: [{provider: openai, model: a, weight: 3}, {provider: b2, model: b, weight: 1}]
            """;

    @Test
    void threeToOneIsExactAndSpreadOut() throws Exception {
        Routes r = routes(TWO);
        ModelEntry m = r.catalogue().resolve("team/chat");
        StringBuilder order = new StringBuilder();
        Map<String, Integer> counts = new HashMap<>();
        for (int i = 0; i < 2000; i++) {
            Deployment d = r.choose(m, Set.of()).deployment();
            counts.merge(d.id(), 1, Integer::sum);
            if (i < 8) order.append(d.upstreamModel());
        }
        assertThat(counts).containsEntry("openai/a", 1500).containsEntry("b2/b", 500);
        assertThat(order.toString()).isEqualTo("aabaaaba");
    }

    @Test
    void aRetryGoesElsewhereAndCoolingDeploymentsAreSkippedOrAwaited() throws Exception {
        Routes r = routes(TWO);
        ModelEntry m = r.catalogue().resolve("team/chat");
        assertThat(r.choose(m, Set.of("openai/a")).deployment().id()).isEqualTo("b2/b");
        assertThat(r.otherReady(m, Set.of("openai/a"))).isTrue();
        CircuitBreaker a = breakers.find("openai/a");
        a.coolDown(-1);
        for (int i = 0; i < 10; i++) assertThat(r.choose(m, Set.of()).deployment().id()).isEqualTo("b2/b");
        assertThat(r.otherReady(m, Set.of("b2/b"))).isFalse();
        breakers.find("b2/b").coolUntil(System.nanoTime() + 5_000_000_000L); // as another instance decided
        Routes.Choice wait = r.choose(m, Set.of());
        assertThat(wait.ready()).isFalse();
        assertThat(wait.deployment().id()).isEqualTo("b2/b"); // recovers first
        assertThat(wait.waitMs()).isBetween(1L, 5_000L);
    }

    @Test
    void keysSplitADeploymentsWeightAndTheDefaultRouteIsTheBuiltInVendor() throws Exception {
        Routes r = routes("""
                providers:
                  anthropic: {keys: [{key: k1, weight: 3}, {key: k2, weight: 1}]}
                """);
        List<Deployment> ds = r.deployments(r.catalogue().resolve("platform/vendorA-sonnet-5"));
        assertThat(ds).extracting(Deployment::id).containsExactly("anthropic/vendorA-sonnet-5#1", "anthropic/vendorA-sonnet-5#2");
        assertThat(ds).extracting(Deployment::weight).containsExactly(0.75, 0.25);
        assertThat(ds.get(1).endpoint().apiKey()).isEqualTo("k2");
        Deployment b = r.deployments(r.catalogue().resolve("platform/vendorB-5.5")).getFirst();
        assertThat(b.id()).isEqualTo("openai/vendorB-5.5");
    }

    @Test
    void aCallNamingOnlyItsVendorIsSpreadOverThatVendorsDeploymentsAndSkipsCoolingOnes() throws Exception {
        Routes r = routes("""
                providers:
                  openai: {keys: [k1, k2]}
                """);
        Map<String, Integer> keys = new HashMap<>();
        for (int i = 0; i < 100; i++) keys.merge(r.choose(Vendor.OPENAI).deployment().endpoint().apiKey(), 1, Integer::sum);
        assertThat(keys).containsOnly(Map.entry("k1", 50), Map.entry("k2", 50));
        for (Deployment d : r.all().values().stream().flatMap(List::stream).toList()) {
            if ("k1".equals(d.endpoint().apiKey())) breakers.find(d.id()).coolDown(-1);
        }
        for (int i = 0; i < 10; i++) assertThat(r.choose(Vendor.OPENAI).deployment().endpoint().apiKey()).isEqualTo("k2");
        assertThat(r.choose(Vendor.ANTHROPIC).deployment().endpoint().vendor()).isEqualTo(Vendor.ANTHROPIC);
    }

    @Test
    void aProviderMustSpeakTheModelsFormat() {
        assertThatThrownBy(() -> routes("""
                models:
                  platform/vendorA-sonnet-5: {deployments: [{provider: openai, model: x}]}
                """)).hasMessageContaining("models.platform/vendorA-sonnet-5.deployments[0].provider")
                .hasMessageContaining("anthropic model");
    }

    @Test
    void cooldownsGrowWhileItKeepsFailingAndHonourRetryAfter() {
        TestClock clock = new TestClock();
        CircuitBreaker b = new CircuitBreaker(new CircuitBreaker.Thresholds(1, Duration.ofSeconds(10), Duration.ofSeconds(30)), clock);
        b.record(b.acquire(), CircuitBreaker.Outcome.FAILED);
        assertThat(b.readyInMs()).isEqualTo(10_000);
        clock.advanceMillis(4_000);
        assertThat(b.readyInMs()).isEqualTo(6_000);
        b.coolDown(-1);
        assertThat(b.readyInMs()).isEqualTo(20_000);
        b.coolDown(-1);
        assertThat(b.readyInMs()).isEqualTo(30_000); // capped
        CircuitBreaker hinted = new CircuitBreaker(new CircuitBreaker.Thresholds(1, Duration.ofSeconds(1), Duration.ofSeconds(60)), clock);
        hinted.record(hinted.acquire(), CircuitBreaker.Outcome.FAILED, 20_000);
        assertThat(hinted.readyInMs()).isEqualTo(20_000);
    }
}
