package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorOperation;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.gemini.GeminiCodec;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.List;

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
        VendorOperation op = VertexEmbeddings.operation(AT, "platform/embed", List.of("a", "b"), null, null, false);
        OperationAnswer.Decoded decoded = answer(op, """
                {"predictions":[{"embeddings":{"values":[0.25,0.5],"statistics":{"token_count":3,"truncated":false}}},
                                {"embeddings":{"values":[0.75,1.0],"statistics":{"token_count":4,"truncated":false}}}],
                 "metadata":{"billableCharacterCount":2}}""");
        assertThat(Fixtures.parse(decoded.body().toString())).isEqualTo(Fixtures.parse("""
                {"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.25,0.5]},
                                         {"object":"embedding","index":1,"embedding":[0.75,1.0]}],
                 "model":"platform/embed","usage":{"prompt_tokens":7,"total_tokens":7}}"""));
        assertThat(decoded.usage().inputTokens()).isEqualTo(7);
        assertThat(Fixtures.parse(op.encode("text-embedding-005").body().toString()))
                .isEqualTo(Fixtures.parse("{\"instances\":[{\"content\":\"a\"},{\"content\":\"b\"}]}"));
    }

    @Test
    void anInvalidAnswerIsTheVendorsFault() {
        VendorOperation op = VertexEmbeddings.operation(AT, "platform/embed", List.of("a"), 8, null, false);
        assertThatThrownBy(() -> answer(op, "<html>")).isInstanceOf(GatewayException.class)
                .satisfies(e -> assertThat(((GatewayException) e).status()).isEqualTo(502));
    }

    @Test
    void geminiCountIsAnsweredInTheMessagesCountShape() {
        VendorOperation op = VertexGeminiTokenCount.operation(AT, new MessagesInbound().decodeRequest(Fixtures.parse("""
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
