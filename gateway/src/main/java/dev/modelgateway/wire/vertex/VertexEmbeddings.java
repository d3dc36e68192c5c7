package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.FannedOperation;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorJson;
import dev.modelgateway.wire.openai.media.EmbeddingVectors;
import io.vertx.core.buffer.Buffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Vendor B's embeddings request and answer on Vertex's text embeddings API, {@code publishers/google/models/{m}:predict}
 * (https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api): one instance per input
 * ({@code content}, and {@code task_type} when given), {@code parameters.outputDimensionality} for the caller's
 * {@code dimensions}; the answer's {@code predictions[].embeddings.values} in input order, and, unlike the Developer
 * API's, its usage: each prediction's {@code embeddings.statistics.token_count}, summed.
 *
 * <p>A request takes at most 250 inputs, and {@code gemini-embedding-001} one ("Get text embeddings", API limits:
 * https://cloud.google.com/vertex-ai/generative-ai/docs/embeddings/get-text-embeddings), so a call of more is several
 * requests of the same operation, answered together.
 */
public final class VertexEmbeddings {
    /** Inputs per request of the text embedding models ("Get text embeddings", API limits). */
    static final int MAX_INSTANCES = 250;

    private VertexEmbeddings() {
    }

    /**
     * @param taskType Vertex's {@code task_type} (RETRIEVAL_QUERY, RETRIEVAL_DOCUMENT, …), or null for the model's default
     */
    public static FannedOperation operation(VertexLocation at, String publicModel, List<String> texts, Integer dimensions,
                                            String taskType, boolean base64) {
        return new FannedOperation(upstreamModel -> requests(at, upstreamModel, texts, dimensions, taskType),
                (upstreamModel, answers) -> answer(answers, publicModel, base64), new VendorErrors.Decoded(new VertexGeminiCodec(at)));
    }

    /** The requests of one call, in input order: one input each for the Gemini embedding models, else up to 250. */
    static List<OperationRequest> requests(VertexLocation at, String upstreamModel, List<String> texts, Integer dimensions,
                                           String taskType) {
        String path = at.googlePath(upstreamModel, "predict");
        int per = upstreamModel.startsWith("gemini-embedding") ? 1 : MAX_INSTANCES;
        List<OperationRequest> out = new ArrayList<>();
        for (int from = 0; from < texts.size(); from += per) {
            out.add(OperationRequest.json(path, body(texts.subList(from, Math.min(texts.size(), from + per)), dimensions, taskType)));
        }
        return out;
    }

    /** Vendor B's embeddings list from the answers to {@link #requests}, in their order, with their summed token counts. */
    static OperationAnswer.Decoded answer(List<Buffer> answers, String publicModel, boolean base64) {
        List<ArrayNode> vectors = new ArrayList<>();
        long tokens = 0;
        for (Buffer answer : answers) {
            for (JsonNode p : VendorJson.object(answer, Vendor.GEMINI).path("predictions")) {
                JsonNode embeddings = p.path("embeddings");
                vectors.add(embeddings.path("values") instanceof ArrayNode values ? values : JsonNodeFactory.instance.arrayNode());
                tokens += embeddings.path("statistics").path("token_count").asLong(0);
            }
        }
        ObjectNode list = EmbeddingVectors.list(vectors, publicModel, base64, tokens);
        return new OperationAnswer.Decoded(Json.toBuffer(list), new Usage(tokens, 0, 0, 0, 0, 0));
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
