package dev.modelgateway.wire.openai.media;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.wire.MultipartForm;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorJson;
import dev.modelgateway.wire.VendorOperation;

import java.util.List;

/**
 * Vendor B's image generation (JSON) and edits (multipart), relayed natively: only {@code model} is rewritten; the
 * answer goes back as it came, its token usage read when present.
 */
public final class OpenAiImages {
    private static final OperationAnswer ANSWER = new OperationAnswer.Json(vendorBody -> {
        JsonNode u = VendorJson.object(vendorBody, Vendor.OPENAI).path("usage");
        return new OperationAnswer.Decoded(vendorBody, new Usage(u.path("input_tokens").asLong(0), 0, 0, 0,
                u.path("output_tokens").asLong(0), 0));
    });

    private OpenAiImages() {
    }

    public static VendorOperation generation(ObjectNode body) {
        return new VendorOperation(upstreamModel -> OperationRequest.json("/images/generations",
                body.deepCopy().put("model", upstreamModel)), ANSWER, VendorErrors.AS_SENT);
    }

    /** @param parts the caller's form, sent in its order with {@code model} rewritten */
    public static VendorOperation edit(List<MultipartForm.Part> parts) {
        return new VendorOperation(upstreamModel -> OperationRequest.form("/images/edits",
                MultipartForm.encode(MultipartForm.withModel(parts, upstreamModel))), ANSWER, VendorErrors.AS_SENT,
                MultipartForm.size(parts));
    }
}
