package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.VendorErrorKinds;

final class AnthropicErrors {
    private AnthropicErrors() { }

    static GatewayException fromBody(int status, String body) {
        JsonNode n = ToolArguments.parseOrNull(body);
        if (n == null) return VendorErrorKinds.of(status, body, null, null, null);
        return fromError(status, n.path("error"));
    }

    /** @param error the {@code error} object ({type, message}) of a body or an SSE error event */
    static GatewayException fromError(int status, JsonNode error) {
        String type = error.path("type").asText(null);
        int s = status > 0 ? status : statusOf(type);
        return VendorErrorKinds.of(s, error.path("message").asText("upstream error"), null, type, null);
    }

    private static int statusOf(String type) {
        if (type == null) return 500;
        return switch (type) {
            case "invalid_request_error" -> 400;
            case "authentication_error" -> 401;
            case "billing_error" -> 402;
            case "permission_error" -> 403;
            case "not_found_error" -> 404;
            case "request_too_large" -> 413;
            case "rate_limit_error" -> 429;
            case "timeout_error" -> 504;
            case "overloaded_error" -> 529;
            default -> 500;
        };
    }
}
