package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;

/**
 * {@code {"type":"error","error":{"type","message"}}}: the one rendering of vendor A's error body, for HTTP
 * errors on messages routes and for the SSE {@code error} event.
 */
public final class MessagesErrors {
    private MessagesErrors() { }

    public static ObjectNode body(GatewayException e) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("type", "error");
        ObjectNode err = root.putObject("error");
        err.put("type", switch (e.kind()) {
            case INVALID_REQUEST, NOT_IMPLEMENTED -> e.status() == 402 ? "billing_error" : "invalid_request_error";
            case AUTHENTICATION -> "authentication_error";
            case PERMISSION -> "permission_error";
            case NOT_FOUND -> "not_found_error";
            case REQUEST_TOO_LARGE -> "request_too_large";
            case RATE_LIMIT -> e.status() == 402 ? "billing_error" : "rate_limit_error";
            case TIMEOUT -> "timeout_error";
            case OVERLOADED -> "overloaded_error";
            case INTERNAL, UPSTREAM, UNAVAILABLE -> "api_error";
        });
        err.put("message", e.getMessage());
        return root;
    }
}
