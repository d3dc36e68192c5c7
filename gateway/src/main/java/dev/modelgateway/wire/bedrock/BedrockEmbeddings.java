package dev.modelgateway.wire.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.LocalTokenizer;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.FannedOperation;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorJson;
import dev.modelgateway.wire.openai.media.EmbeddingVectors;
import io.vertx.core.buffer.Buffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Vendor B's embeddings request on Bedrock's embedding models through InvokeModel (Bedrock User Guide, "Amazon Titan
 * Embeddings Text", "Cohere Embed models"):
 * <ul>
 *   <li>Titan Text Embeddings ({@code amazon.titan-embed-text-v2:0}, v1): one input per call,
 *       {@code {"inputText", "dimensions", "normalize"}} → {@code {"embedding": […], "inputTextTokenCount": n}};
 *       v2 takes 256, 512 or 1024 dimensions;</li>
 *   <li>Cohere Embed ({@code cohere.embed-*}): every input in one call, {@code {"texts": […], "input_type":
 *       "search_document"}} → {@code {"embeddings": [[…], …]}}, without usage, so the inputs are counted here; only v4
 *       takes a dimension ({@code output_dimension}).</li>
 * </ul>
 * A Titan call of several inputs is several requests ({@link #requests}, {@link #answer}), which {@link #operation}
 * makes one {@link FannedOperation}.
 */
public final class BedrockEmbeddings {
    private static final Set<Integer> TITAN_V2_DIMENSIONS = Set.of(256, 512, 1024);

    private BedrockEmbeddings() {
    }

    /** Whether Bedrock's InvokeModel embeds with this model id (Titan text or Cohere Embed, plain or in a profile). */
    public static boolean embeds(String upstreamModel) {
        return family(upstreamModel) != null;
    }

    /**
     * The InvokeModel requests an embeddings call takes on this model, in input order: one per input for Titan, one for
     * Cohere.
     *
     * @throws GatewayException 400 naming {@code dimensions} or {@code input} when the model cannot take them
     */
    public static List<OperationRequest> requests(String upstreamModel, List<String> texts, Integer dimensions) {
        String family = family(upstreamModel);
        if (family == null) throw GatewayException.invalid("model", "Bedrock model '" + upstreamModel + "' is not an embedding model the gateway knows (Titan Text Embeddings, Cohere Embed).");
        String path = "/model/" + BedrockModelId.encode(upstreamModel) + "/invoke";
        List<OperationRequest> out = new ArrayList<>();
        if (family.equals("titan")) {
            boolean v2 = upstreamModel.contains("titan-embed-text-v2");
            if (dimensions != null && !(v2 && TITAN_V2_DIMENSIONS.contains(dimensions))) {
                throw GatewayException.invalid("dimensions", "Titan Text Embeddings " + (v2 ? "v2 takes 256, 512 or 1024 dimensions." : "v1 takes no dimensions."));
            }
            for (String text : texts) {
                ObjectNode body = Json.MAPPER.createObjectNode().put("inputText", text);
                if (v2) {
                    if (dimensions != null) body.put("dimensions", dimensions);
                    // vendor B's vectors are unit length; Titan v2's are only when asked
                    body.put("normalize", true);
                }
                out.add(OperationRequest.json(path, body));
            }
            return out;
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        texts.forEach(body.putArray("texts")::add);
        body.put("input_type", "search_document");
        if (dimensions != null) {
            if (!upstreamModel.contains("embed-v4")) throw GatewayException.invalid("dimensions", "Cohere Embed v3 takes no dimensions.");
            body.put("output_dimension", dimensions);
        }
        out.add(OperationRequest.json(path, body));
        return out;
    }

    /**
     * Vendor B's embeddings list from Bedrock's answers to {@link #requests}, in the same order; usage is Titan's
     * {@code inputTextTokenCount}s, or the inputs counted locally for Cohere.
     *
     * @throws GatewayException 502 when an answer is not JSON
     */
    public static OperationAnswer.Decoded answer(String upstreamModel, List<Buffer> answers, List<String> texts,
                                                 String publicModel, boolean base64) {
        List<JsonNode> vectors = new ArrayList<>();
        long tokens = 0;
        boolean titan = "titan".equals(family(upstreamModel));
        for (Buffer a : answers) {
            ObjectNode parsed = VendorJson.object(a, Vendor.OPENAI);
            if (titan) {
                vectors.add(parsed.path("embedding"));
                tokens += parsed.path("inputTextTokenCount").asLong(0);
            } else {
                JsonNode embeddings = parsed.path("embeddings");
                // with embedding_types the vectors sit under their type; without, a plain list of float lists
                if (embeddings.isObject()) embeddings = embeddings.path("float");
                embeddings.forEach(vectors::add);
            }
        }
        if (!titan) for (String text : texts) tokens += LocalTokenizer.count(text);
        ObjectNode list = EmbeddingVectors.list(vectors, publicModel, base64, tokens);
        return new OperationAnswer.Decoded(Json.toBuffer(list), new Usage(tokens, 0, 0, 0, 0, 0));
    }

    /**
     * The call as one operation on the chosen deployment: its {@link #requests} (one per input for Titan, sent by the
     * runner a few at a time), answered together by {@link #answer}.
     */
    public static FannedOperation operation(List<String> texts, Integer dimensions, String publicModel, boolean base64) {
        return new FannedOperation(upstreamModel -> requests(upstreamModel, texts, dimensions),
                (upstreamModel, answers) -> answer(upstreamModel, answers, texts, publicModel, base64), BedrockErrors.operationErrors());
    }

    private static String family(String upstreamModel) {
        String base;
        try {
            base = BedrockModelId.parse(upstreamModel).foundationModel();
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (base == null) return null;
        if (base.startsWith("amazon.titan-embed-text-")) return "titan";
        if (base.startsWith("cohere.embed-")) return "cohere";
        return null;
    }
}
