package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.config.CloudAccount;
import dev.modelgateway.config.CloudTarget;
import dev.modelgateway.config.DeploymentApi;
import dev.modelgateway.config.ProviderType;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.GatewayException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which operation a call takes on the deployment it was routed to: the cloud's own API, the vendor's, or none. */
class OperationsTest {
    private static final Catalogue CATALOGUE = Catalogue.loadDefault(Map.of());
    private static final ObjectNode COUNTED = (ObjectNode) Fixtures.parse("""
            {"model":"m","system":"Be brief","messages":[{"role":"user","content":"Hello"}]}""");
    private static final String PROFILE = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc";

    private static VendorEndpoint cloud(ProviderType type, Vendor vendor, DeploymentApi api, Capabilities capabilities) {
        CloudAccount account = new CloudAccount("us-east-1", "my-project", "us-east5", null, null, null);
        return new VendorEndpoint(vendor, "http://127.0.0.1:1", null, null, "d", "p", type, null, null, null, 0,
                new CloudTarget(account, api, capabilities));
    }

    private static VendorEndpoint own(Vendor vendor) {
        return new VendorEndpoint(vendor, "http://127.0.0.1:1", "key");
    }

    private static String countPath(DeploymentOperation op, String upstreamModel) {
        return ((VendorOperation) op).encode(upstreamModel).path();
    }

    @Test
    void bedrockCountsOnTheFoundationModelItCanNameAndHereOtherwise() {
        VendorEndpoint invoke = cloud(ProviderType.BEDROCK, Vendor.ANTHROPIC, DeploymentApi.NATIVE, Capabilities.NATIVE);
        assertThat(countPath(Operations.countTokens(invoke, "eu.anthropic.claude-sonnet-4-5-v1:0", Vendor.ANTHROPIC, COUNTED, null),
                "eu.anthropic.claude-sonnet-4-5-v1:0")).isEqualTo("/model/anthropic.claude-sonnet-4-5-v1%3A0/count-tokens");
        // an application profile: its declared base model, whatever id the runner passes
        VendorEndpoint based = cloud(ProviderType.BEDROCK, Vendor.ANTHROPIC, DeploymentApi.NATIVE,
                new Capabilities(false, Set.of(), true, null, null, "anthropic.claude-opus-4-5-v1:0"));
        assertThat(countPath(Operations.countTokens(based, PROFILE, Vendor.ANTHROPIC, COUNTED, null), PROFILE))
                .isEqualTo("/model/anthropic.claude-opus-4-5-v1%3A0/count-tokens");
        assertThat(Operations.countTokens(invoke, PROFILE, Vendor.ANTHROPIC, COUNTED, null)).isInstanceOf(LocalAnswer.class);
        assertThat(Operations.countTokens(invoke, "not a model id", Vendor.ANTHROPIC, COUNTED, null)).isInstanceOf(LocalAnswer.class);
        VendorEndpoint converse = cloud(ProviderType.BEDROCK, Vendor.OPENAI, DeploymentApi.CONVERSE, Capabilities.NATIVE);
        assertThat(Operations.countTokens(converse, "openai.gpt-oss-120b-1:0", Vendor.OPENAI, COUNTED, null)).isInstanceOf(LocalAnswer.class);
    }

    @Test
    void vertexCountsWithItsEndpointsAndTheVendorsOwnApisAsBefore() {
        VendorEndpoint vertexA = cloud(ProviderType.VERTEX, Vendor.ANTHROPIC, DeploymentApi.NATIVE, Capabilities.NATIVE);
        assertThat(countPath(Operations.countTokens(vertexA, "claude-sonnet-4-7@20260101", Vendor.ANTHROPIC, COUNTED, null),
                "claude-sonnet-4-7@20260101")).isEqualTo("/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict");
        VendorEndpoint vertexC = cloud(ProviderType.VERTEX, Vendor.GEMINI, DeploymentApi.NATIVE, Capabilities.NATIVE);
        assertThat(countPath(Operations.countTokens(vertexC, "gemini-3-flash", Vendor.GEMINI, COUNTED, null), "gemini-3-flash"))
                .isEqualTo("/v1/projects/my-project/locations/us-east5/publishers/google/models/gemini-3-flash:countTokens");

        assertThat(countPath(Operations.countTokens(own(Vendor.ANTHROPIC), "claude-sonnet-5", Vendor.ANTHROPIC, COUNTED, null), "claude-sonnet-5"))
                .isEqualTo("/v1/messages/count_tokens");
        DeploymentOperation here = Operations.countTokens(own(Vendor.GEMINI), "gemini-3-flash", Vendor.GEMINI, COUNTED, null);
        assertThat(here).isInstanceOfSatisfying(LocalAnswer.class,
                local -> assertThat(Fixtures.parse(local.json().get().toString()).path("input_tokens").asLong()).isPositive());
    }

    @Test
    void aLocalCountRefusesWhatTheMessagesDecoderRefuses() {
        ObjectNode bad = (ObjectNode) Fixtures.parse("""
                {"model":"m","messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":"x"}]}]}""");
        LocalAnswer local = (LocalAnswer) Operations.countTokens(own(Vendor.OPENAI), "gpt", Vendor.OPENAI, bad, null);
        assertThatThrownBy(() -> local.json().get()).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.status()).isEqualTo(400));
    }

    @Test
    void embeddingsGoToTheCloudsEmbeddingModelsAndTheVendorsOwnApis() {
        ModelEntry model = CATALOGUE.find("platform/text-embedding-3-small");
        ObjectNode body = (ObjectNode) Fixtures.parse("{\"model\":\"platform/text-embedding-3-small\",\"input\":[\"a\",\"b\"]}");
        VendorEndpoint bedrock = cloud(ProviderType.BEDROCK, Vendor.OPENAI, DeploymentApi.CONVERSE, Capabilities.NATIVE);
        DeploymentOperation titan = Operations.embeddings(bedrock, model, body, List.of("a", "b"), null, false);
        assertThat(((FannedOperation) titan).encode("amazon.titan-embed-text-v2:0")).hasSize(2);
        VendorEndpoint vertex = cloud(ProviderType.VERTEX, Vendor.GEMINI, DeploymentApi.NATIVE, Capabilities.NATIVE);
        assertThat(((FannedOperation) Operations.embeddings(vertex, model, body, List.of("a", "b"), null, false))
                .encode("text-embedding-005")).singleElement()
                .satisfies(r -> assertThat(r.path()).endsWith("/publishers/google/models/text-embedding-005:predict"));
        assertThat(Operations.embeddings(own(Vendor.OPENAI), model, body, List.of("a", "b"), null, false)).isInstanceOf(VendorOperation.class);

        assertThatThrownBy(() -> Operations.embeddings(bedrock, model, body, null, null, false))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("input"));
    }
}
