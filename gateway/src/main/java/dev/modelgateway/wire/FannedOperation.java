package dev.modelgateway.wire;

import io.vertx.core.buffer.Buffer;

import java.util.List;
import java.util.function.Function;

/**
 * One operation that the chosen deployment's API takes as several requests, answered to the caller as one: an
 * embeddings call on a model that embeds one input per request (Titan Text Embeddings on Bedrock, Vertex's
 * {@code gemini-embedding-*}) or a bounded number of them (Vertex's other text embedding models). Each request is a
 * vendor call of the same deployment; the caller's answer and usage are made from all their answers together.
 *
 * @param encoder the requests, in order, for the chosen deployment's id of the model; it may copy the whole caller
 *                body, so the runner calls it beside the event loop when the body is large
 * @param answer  the caller's body and usage from the vendor's 2xx answers, in the requests' order
 * @param errors  what a vendor's non-2xx answer to any of them becomes (the whole operation's error)
 */
public record FannedOperation(Function<String, List<OperationRequest>> encoder, Joiner answer, VendorErrors errors)
        implements DeploymentOperation {
    public List<OperationRequest> encode(String upstreamModel) {
        return encoder.apply(upstreamModel);
    }

    @FunctionalInterface
    public interface Joiner {
        /** @throws dev.modelgateway.error.GatewayException when an answer is unusable ({@link VendorJson#object}) */
        OperationAnswer.Decoded join(String upstreamModel, List<Buffer> answers);
    }
}
