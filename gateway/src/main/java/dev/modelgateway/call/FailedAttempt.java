package dev.modelgateway.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.error.VendorError;
import dev.modelgateway.json.Json;

/**
 * One failed attempt, as the final error lists it: which model, the status it ended with, and a short
 * reason (the vendor's own error message where it gave one).
 */
public record FailedAttempt(String model, int status, String reason) {
    private static final int REASON_CHARS = 120;

    public static FailedAttempt of(String model, Throwable failure) {
        return switch (failure) {
            case VendorError e -> new FailedAttempt(model, e.status(), shorten(vendorMessage(e)));
            case GatewayException g -> new FailedAttempt(model, g.status(), shorten(g.getMessage()));
            default -> new FailedAttempt(model, 502, shorten(String.valueOf(failure.getMessage())));
        };
    }

    @Override
    public String toString() {
        return model + " → " + status + " (" + reason + ")";
    }

    /** {@code error.message} in the OpenAI, Anthropic, Gemini and DashScope shapes alike. */
    private static String vendorMessage(VendorError e) {
        JsonNode body = Json.parseOrNull(e.body().toString());
        if (body == null) return "HTTP " + e.status();
        JsonNode error = body.path("error");
        String message = error.isObject() ? error.path("message").asText("") : body.path("message").asText("");
        return message.isBlank() ? "HTTP " + e.status() : message;
    }

    private static String shorten(String s) {
        String line = s.replace('\n', ' ').strip();
        return line.length() <= REASON_CHARS ? line : line.substring(0, REASON_CHARS - 1) + "…";
    }
}
