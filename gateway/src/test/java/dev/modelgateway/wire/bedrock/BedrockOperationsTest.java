package dev.modelgateway.wire.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.FannedOperation;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorOperation;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;

import java.net.URI;
import java.util.Base64;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** CountTokens and the embeddings operations: requests, answers, errors. */
class BedrockOperationsTest {
    private static final String MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";

    @Test
    void countTokensSendsWhatTheAwsSdkSendsForTheSameInvokeBody() throws Exception {
        ObjectNode counted = (ObjectNode) Json.MAPPER.readTree("{\"model\":\"x\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],"
                + "\"system\":\"terse\"}");
        OperationRequest ours = BedrockCountTokens.operation(counted, "context-1m-2025-08-07").encode("us." + MODEL);
        byte[] invoke = Base64.getDecoder().decode(Json.MAPPER.readTree(ours.body().getBytes()).path("input").path("invokeModel").path("body").asText());
        JsonNode invokeBody = Json.MAPPER.readTree(invoke);
        assertThat(invokeBody.toString()).isEqualTo("{\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"system\":\"terse\","
                + "\"anthropic_version\":\"bedrock-2023-05-31\",\"anthropic_beta\":[\"context-1m-2025-08-07\"],\"max_tokens\":1}");
        try (CapturingServer server = new CapturingServer("{\"inputTokens\":7}");
             BedrockRuntimeClient sdk = BedrockRuntimeClient.builder().endpointOverride(URI.create(server.url())).region(Region.US_EAST_1)
                     .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                     .httpClient(UrlConnectionHttpClient.create()).build()) {
            int tokens = sdk.countTokens(b -> b.modelId(MODEL).input(i -> i.invokeModel(m -> m.body(SdkBytes.fromByteArray(invoke))))).inputTokens();
            assertThat(tokens).isEqualTo(7);
            // a profile is counted on its foundation model: CountTokens takes bare model ids
            assertThat(ours.path()).isEqualTo(server.last().rawPath());
            assertThat(Json.MAPPER.readTree(ours.body().getBytes())).isEqualTo(Json.MAPPER.readTree(server.last().body()));
        }
    }

    @Test
    void countTokensAnswersInVendorAsShape() {
        VendorOperation op = BedrockCountTokens.operation(Json.MAPPER.createObjectNode(), null);
        OperationAnswer.Decoded d = ((OperationAnswer.Json) op.answer()).decoder().decode(Buffer.buffer("{\"inputTokens\":42}"));
        assertThat(d.body().toString()).isEqualTo("{\"input_tokens\":42}");
    }

    @Test
    void theCountingModelIsTheFoundationModelOrTheDeclaredBaseModel() {
        assertThat(BedrockCountTokens.countingModel(BedrockModelId.parse("eu." + MODEL), null)).isEqualTo(MODEL);
        BedrockModelId arn = BedrockModelId.parse("arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc");
        assertThat(BedrockCountTokens.countingModel(arn, null)).isNull();
        assertThat(BedrockCountTokens.countingModel(arn, new Capabilities(true, Set.of(), true, null, null, "us." + MODEL))).isEqualTo(MODEL);
    }

    @Test
    void operationErrorsReadTheErrorTypeHeader() {
        VendorErrors.Mapped errors = (VendorErrors.Mapped) BedrockErrors.operationErrors();
        GatewayException e = errors.map().apply(new VendorError(400, MultiMap.caseInsensitiveMultiMap()
                .set("x-amzn-ErrorType", "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/")
                .set("x-amzn-errormessage", "The provided model doesn't support counting tokens."), Buffer.buffer("{}")));
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.getMessage()).isEqualTo("The provided model doesn't support counting tokens.");
    }

    @Test
    void titanEmbedsOneInputPerRequest() throws Exception {
        List<OperationRequest> requests = BedrockEmbeddings.requests("amazon.titan-embed-text-v2:0", List.of("a", "b"), 256);
        assertThat(requests).extracting(OperationRequest::path).containsOnly("/model/amazon.titan-embed-text-v2%3A0/invoke");
        assertThat(requests).extracting(r -> r.body().toString()).containsExactly(
                "{\"inputText\":\"a\",\"dimensions\":256,\"normalize\":true}", "{\"inputText\":\"b\",\"dimensions\":256,\"normalize\":true}");
        OperationAnswer.Decoded d = BedrockEmbeddings.answer("amazon.titan-embed-text-v2:0",
                List.of(Buffer.buffer("{\"embedding\":[0.5,0.5],\"inputTextTokenCount\":3}"), Buffer.buffer("{\"embedding\":[1.0,0.0],\"inputTextTokenCount\":4}")),
                List.of("a", "b"), "platform/titan", false);
        JsonNode list = Json.MAPPER.readTree(d.body().getBytes());
        assertThat(list.path("data")).hasSize(2);
        assertThat(list.path("data").get(1).path("index").asInt()).isEqualTo(1);
        assertThat(list.path("data").get(1).path("embedding").toString()).isEqualTo("[1.0,0.0]");
        assertThat(list.path("model").asText()).isEqualTo("platform/titan");
        assertThat(d.usage().inputTokens()).isEqualTo(7);
    }

    @Test
    void cohereEmbedsAllInputsInOneRequest() throws Exception {
        FannedOperation op = BedrockEmbeddings.operation(List.of("x", "y"), null, "platform/cohere", false);
        OperationRequest r = op.encode("cohere.embed-english-v3").getFirst();
        assertThat(op.encode("cohere.embed-english-v3")).hasSize(1);
        assertThat(r.body().toString()).isEqualTo("{\"texts\":[\"x\",\"y\"],\"input_type\":\"search_document\"}");
        OperationAnswer.Decoded d = op.answer().join("cohere.embed-english-v3",
                List.of(Buffer.buffer("{\"id\":\"1\",\"embeddings\":[[0.1],[0.2]],\"texts\":[\"x\",\"y\"],\"response_type\":\"embeddings_floats\"}")));
        assertThat(Json.MAPPER.readTree(d.body().getBytes()).path("data")).hasSize(2);
        assertThat(d.usage().inputTokens()).isPositive();
    }

    @Test
    void dimensionsAModelCannotTakeAreTheCallers400() {
        assertThatThrownBy(() -> BedrockEmbeddings.requests("amazon.titan-embed-text-v2:0", List.of("a"), 300))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("dimensions"));
        assertThatThrownBy(() -> BedrockEmbeddings.requests("cohere.embed-english-v3", List.of("a"), 256))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("dimensions"));
        assertThat(BedrockEmbeddings.embeds("us.cohere.embed-v4:0")).isTrue();
        assertThat(BedrockEmbeddings.embeds(MODEL)).isFalse();
    }
}
