package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.wire.EncodedRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Vendor B's embeddings request and answer on vendor C's {@code models/{m}:batchEmbedContents}
 * (https://ai.google.dev/api/embeddings#method:-models.batchembedcontents). Gemini's answer carries no usage,
 * so the endpoint counts the caller's tokens itself.
 */
public final class GeminiEmbeddings {
    private GeminiEmbeddings() {
    }

    /** One embed request per input text, with {@code outputDimensionality} when the caller asked for dimensions. */
    public static EncodedRequest encode(String upstreamModel, List<String> texts, Integer dimensions) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        ArrayNode requests = body.putArray("requests");
        for (String text : texts) {
            ObjectNode r = requests.addObject().put("model", "models/" + upstreamModel);
            r.putObject("content").putArray("parts").addObject().put("text", text);
            if (dimensions != null) r.put("outputDimensionality", dimensions);
        }
        return new EncodedRequest("/v1beta/models/" + upstreamModel + ":batchEmbedContents", body, Map.of(), List.of());
    }

    /** Gemini's {@code embeddings[].values}, one float array per input, in input order. */
    public static List<ArrayNode> vectors(JsonNode answer) {
        List<ArrayNode> out = new ArrayList<>();
        for (JsonNode e : answer.path("embeddings")) {
            out.add(e.path("values") instanceof ArrayNode values ? values : JsonNodeFactory.instance.arrayNode());
        }
        return out;
    }
}
