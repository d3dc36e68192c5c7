package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.VendorErrorKinds;

import java.util.HashMap;
import java.util.Map;

/** Google RPC errors {@code {"error":{code,message,status,details}}}, also accepted as a one-element array. */
final class GeminiErrors {
    private GeminiErrors() { }

    static GatewayException fromBody(int status, String body) {
        JsonNode n = ToolArguments.parseOrNull(body);
        if (n != null && n.isArray()) n = n.path(0);
        if (n == null || !n.path("error").isObject()) return VendorErrorKinds.of(status, body, null, null, null);
        return fromError(status, n.path("error"));
    }

    static GatewayException fromError(int status, JsonNode error) {
        int s = status > 0 ? status : error.path("code").asInt(500);
        String gstatus = error.path("status").asText(null);
        // 403 PERMISSION_DENIED is usually a bad key; keep the status, the message says which.
        Map<String, String> headers = new HashMap<>();
        for (JsonNode d : error.path("details")) {
            if (d.path("@type").asText().endsWith("google.rpc.RetryInfo") && d.hasNonNull("retryDelay")) {
                String delay = d.get("retryDelay").asText().replace("s", "");
                try {
                    headers.put("retry-after", String.valueOf((long) Math.ceil(Double.parseDouble(delay))));
                } catch (NumberFormatException ignored) {
                    // no usable hint
                }
            }
        }
        return VendorErrorKinds.of(s, error.path("message").asText("upstream error"), null, gstatus, headers);
    }
}
