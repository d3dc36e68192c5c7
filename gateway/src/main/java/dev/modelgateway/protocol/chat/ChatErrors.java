package dev.modelgateway.protocol.chat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;

/** The chat error body {@code {"error":{message,type,param,code}}}, also used in-band in streams. */
final class ChatErrors {
    private ChatErrors() { }

    static ObjectNode body(GatewayException e) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode err = root.putObject("error");
        err.put("message", e.getMessage());
        err.put("type", switch (e.kind()) {
            case INVALID_REQUEST, NOT_FOUND, REQUEST_TOO_LARGE -> "invalid_request_error";
            case AUTHENTICATION -> "authentication_error";
            case PERMISSION -> "permission_error";
            case RATE_LIMIT -> "rate_limit_error";
            case NOT_IMPLEMENTED -> "not_implemented";
            case INTERNAL, UPSTREAM, UNAVAILABLE, TIMEOUT, OVERLOADED -> "server_error";
        });
        err.put("param", e.param());
        String code = e.code() != null ? e.code() : switch (e.kind()) {
            case AUTHENTICATION -> "invalid_api_key";
            case RATE_LIMIT -> "rate_limit_exceeded";
            case NOT_FOUND -> "not_found";
            default -> null;
        };
        err.put("code", code);
        return root;
    }
}
