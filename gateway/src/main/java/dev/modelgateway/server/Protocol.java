package dev.modelgateway.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;

/**
 * The wire protocol a caller speaks on a route; it decides the shape of every error the caller sees.
 * Messages routes answer in vendor A's shape, everything else in vendor B's.
 */
public enum Protocol {
    /** {@code {"error":{"message","type","param","code"}}} */
    OPENAI {
        @Override
        public ObjectNode errorBody(GatewayException e, String traceId) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            ObjectNode error = root.putObject("error");
            error.put("message", e.getMessage());
            error.put("type", openAiType(e.kind()));
            error.put("param", e.param());
            error.put("code", e.code() != null ? e.code() : openAiCode(e.kind()));
            return root;
        }
    },
    /** {@code {"type":"error","error":{"type","message"},"request_id"}} */
    ANTHROPIC {
        @Override
        public ObjectNode errorBody(GatewayException e, String traceId) {
            ObjectNode root = Json.MAPPER.createObjectNode();
            root.put("type", "error");
            ObjectNode error = root.putObject("error");
            error.put("type", anthropicType(e.kind()));
            error.put("message", e.getMessage());
            root.put("request_id", traceId);
            return root;
        }
    };

    public abstract ObjectNode errorBody(GatewayException e, String traceId);

    static String openAiType(ErrorKind kind) {
        return switch (kind) {
            case INVALID_REQUEST, NOT_FOUND, AUTHENTICATION, REQUEST_TOO_LARGE -> "invalid_request_error";
            case PERMISSION -> "permission_error";
            case RATE_LIMIT -> "rate_limit_error";
            case NOT_IMPLEMENTED -> "not_implemented_error";
            case TIMEOUT -> "timeout_error";
            case INTERNAL, UPSTREAM, UNAVAILABLE, OVERLOADED -> "server_error";
        };
    }

    static String openAiCode(ErrorKind kind) {
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

    static String anthropicType(ErrorKind kind) {
        return switch (kind) {
            case INVALID_REQUEST, NOT_IMPLEMENTED -> "invalid_request_error";
            case AUTHENTICATION -> "authentication_error";
            case PERMISSION -> "permission_error";
            case NOT_FOUND -> "not_found_error";
            case REQUEST_TOO_LARGE -> "request_too_large";
            case RATE_LIMIT -> "rate_limit_error";
            case TIMEOUT -> "timeout_error";
            case OVERLOADED -> "overloaded_error";
            case INTERNAL, UPSTREAM, UNAVAILABLE -> "api_error";
        };
    }
}
