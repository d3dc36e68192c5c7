package dev.modelgateway.wire.openai.responses;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.UrlText;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorOperation;

/**
 * Retrieving, deleting or listing the input items of a response vendor B stores ({@code GET|DELETE
 * /responses/{id}[/input_items]}): relayed as the SDK asked, the answer as it came; no tokens are spent.
 */
public final class StoredResponseCalls {
    private static final OperationAnswer AS_SENT = new OperationAnswer.Json(body -> new OperationAnswer.Decoded(body, Usage.ZERO));

    private StoredResponseCalls() {
    }

    /**
     * @param suffix {@code ""} or {@code "/input_items"}
     * @param query  the caller's query string, or null
     */
    public static VendorOperation of(String method, String id, String suffix, String query) {
        String path = "/responses/" + UrlText.encode(id) + suffix + (query == null ? "" : "?" + query);
        return new VendorOperation(upstreamModel -> OperationRequest.bodiless(method, path), AS_SENT, VendorErrors.AS_SENT);
    }
}
