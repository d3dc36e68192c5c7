package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorJson;
import dev.modelgateway.wire.VendorOperation;
import dev.modelgateway.wire.gemini.GeminiCodec;

import java.util.List;
import java.util.function.Supplier;

/**
 * Vendor C's exact token count on Vertex, {@code publishers/google/models/{m}:countTokens}
 * (https://cloud.google.com/vertex-ai/docs/reference/rest/v1/projects.locations.publishers.models/countTokens): the
 * request as the Gemini codec encodes it for generateContent, reduced to the fields countTokens takes (unlike the
 * Developer API, no {@code generateContentRequest} wrapper); its {@code totalTokens} is answered in the messages
 * count's shape, {@code {"input_tokens":N}}.
 */
public final class VertexGeminiTokenCount {
    /** The generateContent fields Vertex's countTokens accepts beside {@code contents}. */
    static final List<String> COUNTED_FIELDS = List.of("contents", "systemInstruction", "tools", "generationConfig");
    private static final OperationAnswer INPUT_TOKENS = new OperationAnswer.Json(vendorBody -> {
        JsonNode answer = VendorJson.object(vendorBody, Vendor.GEMINI);
        ObjectNode out = JsonNodeFactory.instance.objectNode().put("input_tokens", answer.path("totalTokens").asLong(0));
        return new OperationAnswer.Decoded(Json.toBuffer(out), Usage.ZERO);
    });

    private VertexGeminiTokenCount() {
    }

    /**
     * @param request the caller's body as a canonical request (the messages count endpoint's, decoded): asked for
     *                when the request is encoded, which the runner does beside the event loop for a large body
     */
    public static VendorOperation operation(VertexLocation at, Supplier<CanonicalRequest> request, GeminiCodec gemini) {
        return new VendorOperation(upstreamModel -> {
            ObjectNode generate = gemini.encodeRequest(request.get(), upstreamModel, false).body();
            ObjectNode body = JsonNodeFactory.instance.objectNode();
            for (String field : COUNTED_FIELDS) {
                if (generate.has(field)) body.set(field, generate.get(field));
            }
            return OperationRequest.json(at.googlePath(upstreamModel, "countTokens"), body);
        }, INPUT_TOKENS, new VendorErrors.Decoded(new VertexGeminiCodec(at, gemini)));
    }
}
