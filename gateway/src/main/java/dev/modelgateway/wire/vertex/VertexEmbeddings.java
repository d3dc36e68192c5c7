package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorJson;
import dev.modelgateway.wire.VendorOperation;
import dev.modelgateway.wire.openai.media.EmbeddingVectors;

import java.util.ArrayList;
import java.util.List;

/**
 * Vendor B's embeddings request and answer on Vertex's text embeddings API, {@code publishers/google/models/{m}:predict}
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api): one instance per input
 * ({@code content}, and {@code task_type} when given), {@code parameters.outputDimensionality} for the caller's
 * {@code dimensions}; the answer's {@code predictions[].embeddings.values} in input order, and, unlike the Developer
 * API's, its usage: each prediction's {@code embeddings.statistics.token_count}, summed.
 */
public final class VertexEmbeddings {
    private VertexEmbeddings() {
    }

    /**
     * @param taskType Vertex's {@code task_type} (RETRIEVAL_QUERY, RETRIEVAL_DOCUMENT, …), or null for the model's default
     */
    public static VendorOperation operation(VertexLocation at, String publicModel, List<String> texts, Integer dimensions,
                                            String taskType, boolean base64) {
        OperationAnswer answer = new OperationAnswer.Json(vendorBody -> {
            JsonNode predictions = VendorJson.object(vendorBody, Vendor.GEMINI).path("predictions");
            List<ArrayNode> vectors = new ArrayList<>(predictions.size());
            long tokens = 0;
            for (JsonNode p : predictions) {
                JsonNode embeddings = p.path("embeddings");
                vectors.add(embeddings.path("values") instanceof ArrayNode values ? values : JsonNodeFactory.instance.arrayNode());
                tokens += embeddings.path("statistics").path("token_count").asLong(0);
            }
            ObjectNode list = EmbeddingVectors.list(vectors, publicModel, base64, tokens);
            return new OperationAnswer.Decoded(Json.toBuffer(list), new Usage(tokens, 0, 0, 0, 0, 0));
        });
        return new VendorOperation(upstreamModel -> OperationRequest.json(at.googlePath(upstreamModel, "predict"),
                body(texts, dimensions, taskType)), answer, new VendorErrors.Decoded(new VertexGeminiCodec(at)));
    }

    static ObjectNode body(List<String> texts, Integer dimensions, String taskType) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ArrayNode instances = body.putArray("instances");
        for (String text : texts) {
            ObjectNode instance = instances.addObject().put("content", text);
            if (taskType != null) instance.put("task_type", taskType);
        }
        if (dimensions != null) body.putObject("parameters").put("outputDimensionality", dimensions);
        return body;
    }
}
