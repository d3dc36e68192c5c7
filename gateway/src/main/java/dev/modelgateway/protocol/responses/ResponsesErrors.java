package dev.modelgateway.protocol.responses;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;

/** Errors in the Responses API: the OpenAI body for HTTP errors, and the {@code error.code} of failed responses. */
final class ResponsesErrors {
    private ResponsesErrors() { }

    static String code(GatewayException e) {
        if (e.code() != null) return e.code();
        return switch (e.kind()) {
            case RATE_LIMIT -> "rate_limit_exceeded";
            case INVALID_REQUEST -> "invalid_prompt";
            default -> "server_error";
        };
    }

    static ObjectNode body(GatewayException e) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode err = root.putObject("error");
        err.put("message", e.getMessage());
        err.put("type", switch (e.kind()) {
            case INVALID_REQUEST, NOT_FOUND, REQUEST_TOO_LARGE -> "invalid_request_error";
            case AUTHENTICATION -> "authentication_error";
            case PERMISSION -> "permission_error";
            case RATE_LIMIT -> "rate_limit_error";
            default -> "server_error";
        });
        err.put("param", e.param());
        err.put("code", e.code());
        return root;
    }
}
