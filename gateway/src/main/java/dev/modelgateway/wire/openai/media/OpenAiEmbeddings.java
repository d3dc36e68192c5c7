package dev.modelgateway.wire.openai.media;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorJson;
import dev.modelgateway.wire.VendorOperation;

/**
 * {@code POST /embeddings} in vendor B's shape, to vendor B natively or to a vendor speaking its shape (vendor D's
 * compatible mode): only {@code model} is rewritten, and the answer names the public model.
 */
public final class OpenAiEmbeddings {
    private OpenAiEmbeddings() {
    }

    /**
     * @param floatsOnly the vendor is asked for floats and base64 is encoded here when the caller wants it (vendor
     *                   D's base64 support varies)
     */
    public static VendorOperation operation(ObjectNode body, String publicModel, Vendor vendor, boolean base64, boolean floatsOnly) {
        boolean encodeHere = floatsOnly && base64;
        OperationAnswer answer = new OperationAnswer.Json(vendorBody -> {
            ObjectNode parsed = VendorJson.object(vendorBody, vendor);
            Usage usage = new Usage(parsed.path("usage").path("prompt_tokens").asLong(0), 0, 0, 0, 0, 0);
            parsed.put("model", publicModel);
            if (encodeHere) {
                for (JsonNode d : parsed.path("data")) ((ObjectNode) d).set("embedding", EmbeddingVectors.encode(d.get("embedding"), true));
            }
            return new OperationAnswer.Decoded(Json.toBuffer(parsed), usage);
        });
        return new VendorOperation(upstreamModel -> {
            ObjectNode out = Json.MAPPER.createObjectNode().setAll(body);
            out.put("model", upstreamModel);
            if (encodeHere) out.put("encoding_format", "float");
            return OperationRequest.json("/embeddings", out);
        }, answer, VendorErrors.AS_SENT);
    }
}
