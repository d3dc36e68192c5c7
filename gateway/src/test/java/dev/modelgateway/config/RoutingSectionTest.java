package dev.modelgateway.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The operator's providers, deployments, catalogue entries and cooldowns, and refusals naming the field. */
class RoutingSectionTest {
    @TempDir
    Path dir;

    GatewayConfig load(String yaml, Map<String, String> env) throws Exception {
        Path file = dir.resolve("gateway.yaml");
        Files.writeString(file, yaml);
        return new ConfigLoader(env::get).load(file);
    }

    GatewayConfig load(String yaml) throws Exception {
        return load(yaml, Map.of());
    }

    @Test
    void providersWithWeightedKeysFromTheEnvironmentHeadersAndAzureVersion() throws Exception {
        GatewayConfig c = load("""
                providers:
                  azure-eu:
                    type: azure-openai
                    base_url: https://contoso.openai.azure.com/
                    api_version: 2024-10-21
                    keys: ["${K1}", {key: "${K2}", weight: 3}, "${UNSET}"]
                    headers: {x-team: ml}
                    connect_timeout_seconds: 2.5
                    max_connections: 50
                models:
                  platform/vendorB-5.5:
                    deployments:
                      - {provider: azure-eu, model: prod, weight: 2, region: eu, tags: [a]}
                      - {provider: openai, model: vendorB-5.5}
                """, Map.of("K1", "key-one-1111", "K2", "key-two-2222"));
        Provider p = c.providers().get("azure-eu");
        assertThat(p.type()).isEqualTo(ProviderType.AZURE_OPENAI);
        assertThat(p.baseUrl()).isEqualTo("https://contoso.openai.azure.com");
        assertThat(p.keys()).containsExactly(new Provider.Key("key-one-1111", 1), new Provider.Key("key-two-2222", 3));
        assertThat(p.toString()).doesNotContain("key-one-1111").contains("****1111");
        assertThat(p.headers()).containsEntry("x-team", "ml");
        assertThat(p.connectTimeoutMs()).isEqualTo(2500);
        assertThat(p.pool().maxConnections()).isEqualTo(50);
        VendorEndpoint e = p.endpoint(1, "azure-eu/prod#2", "prod");
        assertThat(e.pathPrefix()).isEqualTo("/openai/deployments/prod");
        assertThat(e.query()).isEqualTo("api-version=2024-10-21");
        assertThat(e.vendor()).isEqualTo(Vendor.OPENAI);
        assertThat(c.routing().deployments().get("platform/vendorB-5.5"))
                .containsExactly(new DeploymentSpec("azure-eu", "prod", 2, "eu", java.util.List.of("a")),
                        new DeploymentSpec("openai", "vendorB-5.5", 1, null, java.util.List.of()));
        // the four built-in vendors are providers too
        assertThat(c.providers()).containsKeys("anthropic", "openai", "gemini", "dashscope", "azure-eu");
    }

    @Test
    void aProviderNamedAfterAVendorReplacesItEverywhere() throws Exception {
        GatewayConfig c = load("""
                providers:
                  anthropic:
                    keys: [{key: team-key-aaaa, weight: 3}, {key: batch-key-bbbb, weight: 1}]
                """);
        assertThat(c.providers().get("anthropic").type()).isEqualTo(ProviderType.ANTHROPIC);
        assertThat(c.providers().get("anthropic").baseUrl()).isEqualTo("https://api.anthropic.com");
        assertThat(c.vendor(Vendor.ANTHROPIC).apiKey()).isEqualTo("team-key-aaaa");
    }

    @Test
    void catalogueEntriesAndCooldowns() throws Exception {
        GatewayConfig c = load("""
                models:
                  platform/vendorA-sonnet-5: {price: {input: 4}, upstream: claude-x}
                aliases: {sonnet: platform/vendorA-sonnet-5}
                routing:
                  cooldown: {failures: 4, shared_failures: 2, seconds: 1.5, max_seconds: 60}
                """);
        assertThat(c.routing().catalogue().at("/models/platform~1vendorA-sonnet-5/price/input").asInt()).isEqualTo(4);
        assertThat(c.routing().catalogue().at("/models/platform~1vendorA-sonnet-5/upstream").isMissingNode()).isTrue();
        assertThat(c.upstreamOverrides()).containsEntry("platform/vendorA-sonnet-5", "claude-x");
        assertThat(c.routing().catalogue().at("/aliases/sonnet").asText()).isEqualTo("platform/vendorA-sonnet-5");
        assertThat(c.routing().cooldown().failures()).isEqualTo(4);
        assertThat(c.routing().cooldown().first().toMillis()).isEqualTo(1500);
    }

    @Test
    void refusalsNameTheFieldOrTheLine() {
        assertThatThrownBy(() -> load("providers:\n  x: {type: openai, base_url: https://a.example/v1, api_kye: k}\n"))
                .hasMessageContaining("providers.x.api_kye: unknown setting; did you mean `api_key`?");
        assertThatThrownBy(() -> load("providers:\n  x: {type: bedrock, base_url: https://a.example}\n"))
                .hasMessageContaining("providers.x.type").hasMessageContaining("openai-compatible");
        assertThatThrownBy(() -> load("providers:\n  x: {type: openai}\n")).hasMessageContaining("providers.x.base_url");
        assertThatThrownBy(() -> load("providers:\n  x: {type: openai, base_url: https://a.example, api_version: v}\n"))
                .hasMessageContaining("providers.x.api_version applies to azure-openai");
        assertThatThrownBy(() -> load("models:\n  m:\n    deployments: [{provider: nowhere, model: x}]\n"))
                .hasMessageContaining("models.m.deployments[0].provider").hasMessageContaining("nowhere");
        assertThatThrownBy(() -> load("models:\n  m:\n    deployments: [{provider: openai, model: x, weight: 0}]\n"))
                .hasMessageContaining("models.m.deployments[0].weight");
        assertThatThrownBy(() -> load("models:\n  m: {context_windw: 5}\n")).hasMessageContaining("models.m.context_windw");
        assertThatThrownBy(() -> load("models:\n  - a\n  b: c\n")).hasMessageContaining("line");
    }
}
