package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;

import java.util.HashMap;
import java.util.Map;

/**
 * What one operation sends to a vendor: the method, the path relative to the deployment's base URL (query
 * included), the headers of this request (the vendor's credentials are the deployment's, added by the relay) and
 * the body (null for none).
 */
public record OperationRequest(String method, String path, Map<String, String> headers, Buffer body) {
    public OperationRequest {
        headers = Map.copyOf(headers);
    }

    /** A POST of a JSON body. */
    public static OperationRequest json(String path, ObjectNode body) {
        return new OperationRequest("POST", path, Map.of("content-type", "application/json"), Json.toBuffer(body));
    }

    /** A POST of a JSON body with headers of its own beside the content type. */
    public static OperationRequest json(String path, ObjectNode body, Map<String, String> headers) {
        Map<String, String> all = new HashMap<>(headers);
        all.put("content-type", "application/json");
        return new OperationRequest("POST", path, all, Json.toBuffer(body));
    }

    /** A POST of a multipart form. */
    public static OperationRequest form(String path, MultipartForm.Encoded form) {
        return new OperationRequest("POST", path, Map.of("content-type", form.contentType()), form.body());
    }

    /** A request without a body ({@code GET}, {@code DELETE}). */
    public static OperationRequest bodiless(String method, String path) {
        return new OperationRequest(method, path, Map.of(), null);
    }
}
