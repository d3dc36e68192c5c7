package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorOperation;

import java.util.Map;

/**
 * Vendor A's exact token count on Vertex: {@code publishers/anthropic/models/count-tokens:rawPredict}, one endpoint
 * for every model, the model and {@code anthropic_version} in the body
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/count-tokens); the caller's
 * {@code anthropic-beta} stays a header. The answer is vendor A's {@code {"input_tokens":N}}, returned as it came.
 */
public final class VertexAnthropicTokenCount {
    private static final OperationAnswer AS_SENT = new OperationAnswer.Json(body -> new OperationAnswer.Decoded(body, Usage.ZERO));

    private VertexAnthropicTokenCount() {
    }

    /**
     * @param counted the caller's body reduced to {@code AnthropicTokenCount.COUNTED_FIELDS}
     * @param beta    the caller's {@code anthropic-beta} header, or null
     */
    public static VendorOperation operation(VertexLocation at, ObjectNode counted, String beta) {
        Map<String, String> headers = beta == null ? Map.of() : Map.of("anthropic-beta", beta);
        return new VendorOperation(upstreamModel -> {
            ObjectNode body = counted.deepCopy();
            VertexAnthropic.prepareCount(body, upstreamModel);
            return OperationRequest.json(at.anthropicCountTokensPath(), body, headers);
        }, AS_SENT, new VendorErrors.Decoded(new VertexAnthropicCodec(at)));
    }
}
