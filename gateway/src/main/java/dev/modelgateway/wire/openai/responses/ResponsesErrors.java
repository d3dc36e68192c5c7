package dev.modelgateway.wire.openai.responses;

import dev.modelgateway.error.GatewayException;

/** Errors in the Responses API: the {@code error.code} of failed responses and error events (HTTP errors use {@code ChatErrors}). */
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
}
