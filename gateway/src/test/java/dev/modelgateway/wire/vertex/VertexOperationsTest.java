package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.FannedOperation;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorOperation;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.gemini.GeminiCodec;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The operations' answers: what the caller receives and the usage metered. */
class VertexOperationsTest {
    private static final VertexLocation AT = new VertexLocation("my-project", "us-central1");

    private static OperationAnswer.Decoded answer(VendorOperation op, String vendorBody) {
        return ((OperationAnswer.Json) op.answer()).decoder().decode(Buffer.buffer(vendorBody));
    }

    @Test
    void embeddingsAnswerVendorBsListWithVertexsTokenCounts() {
        FannedOperation op = VertexEmbeddings.operation(AT, "platform/embed", List.of("a", "b"), null, null, false);
        OperationAnswer.Decoded decoded = op.answer().join("text-embedding-005", List.of(Buffer.buffer("""
                {"predictions":[{"embeddings":{"values":[0.25,0.5],"statistics":{"token_count":3,"truncated":false}}},
                                {"embeddings":{"values":[0.75,1.0],"statistics":{"token_count":4,"truncated":false}}}],
                 "metadata":{"billableCharacterCount":2}}""")));
        assertThat(Fixtures.parse(decoded.body().toString())).isEqualTo(Fixtures.parse("""
                {"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.25,0.5]},
                                         {"object":"embedding","index":1,"embedding":[0.75,1.0]}],
                 "model":"platform/embed","usage":{"prompt_tokens":7,"total_tokens":7}}"""));
        assertThat(decoded.usage().inputTokens()).isEqualTo(7);
        assertThat(op.encode("text-embedding-005")).singleElement().satisfies(r -> assertThat(Fixtures.parse(r.body().toString()))
                .isEqualTo(Fixtures.parse("{\"instances\":[{\"content\":\"a\"},{\"content\":\"b\"}]}")));
    }

    @Test
    void geminiEmbeddingTakesOneInputPerRequestAndTheOthersAtMost250() {
        FannedOperation op = VertexEmbeddings.operation(AT, "platform/embed", List.of("a", "b", "c"), 8, null, false);
        List<OperationRequest> one = op.encode("gemini-embedding-001");
        assertThat(one).extracting(OperationRequest::path)
                .containsOnly("/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-embedding-001:predict");
        assertThat(one).extracting(r -> r.body().toString()).containsExactly(
                "{\"instances\":[{\"content\":\"a\"}],\"parameters\":{\"outputDimensionality\":8}}",
                "{\"instances\":[{\"content\":\"b\"}],\"parameters\":{\"outputDimensionality\":8}}",
                "{\"instances\":[{\"content\":\"c\"}],\"parameters\":{\"outputDimensionality\":8}}");
        List<String> many = IntStream.range(0, 251).mapToObj(i -> "t" + i).toList();
        List<OperationRequest> batches = VertexEmbeddings.operation(AT, "platform/embed", many, null, null, false).encode("text-embedding-005");
        assertThat(batches).extracting(r -> Fixtures.parse(r.body().toString()).path("instances").size()).containsExactly(250, 1);

        OperationAnswer.Decoded joined = op.answer().join("gemini-embedding-001", List.of(
                Buffer.buffer("{\"predictions\":[{\"embeddings\":{\"values\":[1.0],\"statistics\":{\"token_count\":2}}}]}"),
                Buffer.buffer("{\"predictions\":[{\"embeddings\":{\"values\":[2.0],\"statistics\":{\"token_count\":3}}}]}")));
        assertThat(Fixtures.parse(joined.body().toString()).path("data").get(1).path("index").asInt()).isEqualTo(1);
        assertThat(Fixtures.parse(joined.body().toString()).path("data").get(1).path("embedding").toString()).isEqualTo("[2.0]");
        assertThat(joined.usage().inputTokens()).isEqualTo(5);
    }

    @Test
    void anInvalidAnswerIsTheVendorsFault() {
        FannedOperation op = VertexEmbeddings.operation(AT, "platform/embed", List.of("a"), 8, null, false);
        assertThatThrownBy(() -> op.answer().join("text-embedding-005", List.of(Buffer.buffer("<html>")))).isInstanceOf(GatewayException.class)
                .satisfies(e -> assertThat(((GatewayException) e).status()).isEqualTo(502));
    }

    @Test
    void geminiCountIsAnsweredInTheMessagesCountShape() {
        VendorOperation op = VertexGeminiTokenCount.operation(AT, () -> new MessagesInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","max_tokens":16,"messages":[{"role":"user","content":"Hello"}]}""")), new GeminiCodec());
        OperationAnswer.Decoded decoded = answer(op, "{\"totalTokens\":12,\"promptTokensDetails\":[{\"modality\":\"TEXT\",\"tokenCount\":12}]}");
        assertThat(Fixtures.parse(decoded.body().toString())).isEqualTo(Fixtures.parse("{\"input_tokens\":12}"));
        assertThat(decoded.usage().totalTokens()).isZero();
        assertThat(op.errors()).isInstanceOf(VendorErrors.Decoded.class);
    }

    @Test
    void vendorAsCountIsReturnedAsItCame() {
        VendorOperation op = VertexAnthropicTokenCount.operation(AT, (ObjectNode) Fixtures.parse("""
                {"messages":[{"role":"user","content":"Hello"}]}"""), null);
        assertThat(answer(op, "{\"input_tokens\":5}").body().toString()).isEqualTo("{\"input_tokens\":5}");
        assertThat(op.encode("claude-haiku-4-5@20251001").headers()).doesNotContainKey("anthropic-beta");
    }
}
