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
        VendorEndpoint e = p.endpoint(1, "azure-eu/prod#2", "prod", Vendor.OPENAI,
                new DeploymentSpec("azure-eu", "prod", 1, null, java.util.List.of()));
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
    void cloudProvidersTakeTheirServicesHostsAndDeploymentsDeclareApiAndCapabilities() throws Exception {
        GatewayConfig c = load("""
                providers:
                  aws-east: {type: bedrock, region: us-east-1}
                  gcp: {type: vertex, project: my-project, location: global}
                  gcp-east: {type: vertex, project: my-project, location: us-east5}
                models:
                  platform/vendorA-sonnet-5:
                    deployments:
                      - {provider: aws-east, model: "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc",
                         capabilities: {prompt_cache: true, thinking: [adaptive], max_output_tokens: 64000,
                                        base_model: anthropic.claude-sonnet-5-v1:0}}
                      - {provider: aws-east, model: us.anthropic.claude-sonnet-5-v1:0, api: converse}
                      - {provider: gcp, model: claude-sonnet-5@20260101}
                """);
        assertThat(c.providers().get("aws-east").baseUrl()).isEqualTo("https://bedrock-runtime.us-east-1.amazonaws.com");
        assertThat(c.providers().get("gcp").baseUrl()).isEqualTo("https://aiplatform.googleapis.com");
        assertThat(c.providers().get("gcp-east").baseUrl()).isEqualTo("https://us-east5-aiplatform.googleapis.com");
        var ds = c.routing().deployments().get("platform/vendorA-sonnet-5");
        assertThat(ds.get(0).api()).isNull();
        assertThat(ds.get(0).apiFor(ProviderType.BEDROCK, Vendor.ANTHROPIC)).isEqualTo(DeploymentApi.NATIVE);
        assertThat(ds.get(0).apiFor(ProviderType.BEDROCK, Vendor.DASHSCOPE)).isEqualTo(DeploymentApi.CONVERSE);
        assertThat(ds.get(0).capabilities()).isEqualTo(new Capabilities(true, java.util.Set.of("adaptive"), true, 64000, null,
                "anthropic.claude-sonnet-5-v1:0"));
        assertThat(ds.get(1).api()).isEqualTo(DeploymentApi.CONVERSE);
        // nothing declared, nothing assumed: no cache markers go to a cloud deployment that did not say it caches
        assertThat(ds.get(2).capabilities().promptCache()).isFalse();
    }

    @Test
    void refusalsNameTheFieldOrTheLine() {
        assertThatThrownBy(() -> load("providers:\n  x: {type: openai, base_url: https://a.example/v1, api_kye: k}\n"))
                .hasMessageContaining("providers.x.api_kye: unknown setting; did you mean `api_key`?");
        assertThatThrownBy(() -> load("providers:\n  x: {type: bedrok, base_url: https://a.example}\n"))
                .hasMessageContaining("providers.x.type").hasMessageContaining("openai-compatible").hasMessageContaining("bedrock");
        assertThatThrownBy(() -> load("providers:\n  x: {type: bedrock}\n")).hasMessageContaining("providers.x.region");
        assertThatThrownBy(() -> load("providers:\n  x: {type: vertex, project: my-project, location: us-east5, api_key: k}\n"))
                .hasMessageContaining("providers.x").hasMessageContaining("google");
        assertThatThrownBy(() -> load("providers:\n  x: {type: vertex, project: my-project}\n")).hasMessageContaining("providers.x.location");
        assertThatThrownBy(() -> load("providers:\n  x: {type: openai, base_url: https://a.example, region: us-east-1}\n"))
                .hasMessageContaining("providers.x.region applies to the clouds'");
        assertThatThrownBy(() -> load("providers:\n  x: {type: anthropic-aws, region: us-east-1, base_url: https://a.example}\n"))
                .hasMessageContaining("providers.x.workspace_id is required");
        assertThatThrownBy(() -> load("""
                providers:
                  aws: {type: bedrock, region: us-east-1}
                models:
                  platform/vendorA-sonnet-5:
                    deployments: [{provider: aws, model: x, capabilities: {prompt_cache: true, thinkin: []}}]
                """)).hasMessageContaining("models.platform/vendorA-sonnet-5.deployments[0].capabilities.thinkin")
                .hasMessageContaining("thinking");
        assertThatThrownBy(() -> load("""
                models:
                  platform/vendorA-sonnet-5:
                    deployments: [{provider: anthropic, model: x, api: converse}]
                """)).hasMessageContaining("deployments[0].api applies to bedrock deployments only");
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
