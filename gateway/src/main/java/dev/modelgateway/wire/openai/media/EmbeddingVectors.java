package dev.modelgateway.wire.openai.media;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;

/** Vectors in the caller's {@code encoding_format}: float arrays, or base64 of little-endian float32 (what the OpenAI SDKs decode). */
public final class EmbeddingVectors {
    private EmbeddingVectors() {
    }

    public static JsonNode encode(JsonNode floats, boolean base64) {
        if (!base64) return floats;
        ByteBuffer buf = ByteBuffer.allocate(floats.size() * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (JsonNode f : floats) buf.putFloat(f.floatValue());
        return JsonNodeFactory.instance.textNode(Base64.getEncoder().encodeToString(buf.array()));
    }

    /** Vendor B's embeddings answer for float vectors computed elsewhere (e.g. by vendor C), in input order. */
    public static ObjectNode list(List<? extends JsonNode> vectors, String publicModel, boolean base64, long inputTokens) {
        ObjectNode out = JsonNodeFactory.instance.objectNode().put("object", "list");
        ArrayNode data = out.putArray("data");
        int i = 0;
        for (JsonNode v : vectors) {
            data.addObject().put("object", "embedding").put("index", i++).set("embedding", encode(v, base64));
        }
        out.put("model", publicModel);
        out.putObject("usage").put("prompt_tokens", inputTokens).put("total_tokens", inputTokens);
        return out;
    }
}
