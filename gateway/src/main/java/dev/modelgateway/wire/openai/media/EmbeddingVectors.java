package dev.modelgateway.wire.openai.media;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

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

    public static ArrayNode floats(JsonNode values) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode(values.size());
        values.forEach(out::add);
        return out;
    }
}
