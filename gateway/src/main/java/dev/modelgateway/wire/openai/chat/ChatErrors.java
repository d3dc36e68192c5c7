package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;

/**
 * The OpenAI error body {@code {"error":{message,type,param,code}}}: the one rendering of it, for HTTP
 * errors on every OpenAI-style route and for in-band errors in chat and Responses streams.
 */
public final class ChatErrors {
    private ChatErrors() { }

    public static ObjectNode body(GatewayException e) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode err = root.putObject("error");
        err.put("message", e.getMessage());
        err.put("type", type(e.kind()));
        err.put("param", e.param());
        err.put("code", e.code() != null ? e.code() : code(e.kind()));
        return root;
    }

    private static String type(ErrorKind kind) {
        return switch (kind) {
            case INVALID_REQUEST, NOT_FOUND, AUTHENTICATION, REQUEST_TOO_LARGE -> "invalid_request_error";
            case PERMISSION -> "permission_error";
            case RATE_LIMIT -> "rate_limit_error";
            case NOT_IMPLEMENTED -> "not_implemented_error";
            case TIMEOUT -> "timeout_error";
            case INTERNAL, UPSTREAM, UNAVAILABLE, OVERLOADED -> "server_error";
        };
    }

    private static String code(ErrorKind kind) {
        return switch (kind) {
            case AUTHENTICATION -> "invalid_api_key";
            case NOT_FOUND -> "not_found";
            case RATE_LIMIT -> "rate_limit_exceeded";
            case REQUEST_TOO_LARGE -> "request_too_large";
            case NOT_IMPLEMENTED -> "unsupported_feature";
            case TIMEOUT -> "timeout";
            case UPSTREAM -> "upstream_error";
            case UNAVAILABLE -> "unavailable";
            case OVERLOADED -> "overloaded";
            default -> null;
        };
    }
}
