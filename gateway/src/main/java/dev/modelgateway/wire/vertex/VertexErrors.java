package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.VendorErrorKinds;
import dev.modelgateway.wire.anthropic.AnthropicCodec;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Vertex AI's errors. Vertex's own front end answers a google.rpc Status, {@code {"error":{"code","message","status",
 * "details"}}} (https://cloud.google.com/apis/design/errors), also as a one-element array on
 * {@code streamGenerateContent}; behind {@code rawPredict}, vendor A's model answers its own error shape
 * ({@code {"type":"error","error":{"type","message"}}}), which goes to vendor A's decoding.
 *
 * <p>By the Status's {@code status} (the HTTP status when there is none): {@code RESOURCE_EXHAUSTED} → 429 (quota:
 * the retry rule moves to another deployment), {@code UNAUTHENTICATED} → 401 {@link #TOKEN_REJECTED} (the access token
 * expired or was revoked: refresh it once and retry), {@code PERMISSION_DENIED} → 403 {@link #PERMISSION_DENIED}
 * (IAM, the API not enabled, the model's terms not accepted: retrying cannot help), {@code INVALID_ARGUMENT},
 * {@code FAILED_PRECONDITION}, {@code OUT_OF_RANGE} → 400, {@code NOT_FOUND} → 404 {@link #MODEL_NOT_FOUND} naming
 * the model and location, {@code UNAVAILABLE} → 503, {@code DEADLINE_EXCEEDED} → 504, {@code INTERNAL} → 500.
 */
public final class VertexErrors {
    /** Vertex refused the gateway's OAuth access token (expired, revoked, wrong scope): refresh once, then retry. */
    public static final String TOKEN_REJECTED = "vertex_token_rejected";
    /** The gateway's identity may not call this model here: an IAM role, the API or the model's terms are missing. */
    public static final String PERMISSION_DENIED = "vertex_permission_denied";
    /** No such model in this project's location (a wrong id, or a model not offered in that region). */
    public static final String MODEL_NOT_FOUND = "vertex_model_not_found";

    /** The resource name Vertex's not-found messages carry, e.g. "Publisher Model `projects/p/locations/l/publishers/google/models/m` not found." */
    private static final Pattern MODEL_NAME = Pattern.compile("projects/[^/\\s`']+/locations/([^/\\s`']+)/publishers/[^/\\s`']+/models/([^\\s`':]+)");
    private static final AnthropicCodec ANTHROPIC = new AnthropicCodec();

    private VertexErrors() {
    }

    /**
     * A Vertex error answer in the gateway's terms, keeping Vertex's message.
     *
     * @param at    where the call went, named in a not-found error
     * @param model the model called, or null to read it from Vertex's message (the codecs' case)
     */
    public static GatewayException decode(int httpStatus, String body, VertexLocation at, String model) {
        JsonNode parsed = Json.parseOrNull(body);
        if (isAnthropicShape(parsed)) return ANTHROPIC.decodeError(httpStatus, body);
        JsonNode status = parsed != null && parsed.isArray() ? parsed.path(0) : parsed;
        JsonNode error = status == null ? null : status.get("error");
        if (error == null || !error.isObject()) {
            return fromStatus(httpStatus, null, body == null || body.isBlank() ? "HTTP " + httpStatus : body, null, at, model);
        }
        return fromStatus(httpStatus, error.path("status").asText(null), error.path("message").asText("upstream error"),
                error.path("details"), at, model);
    }

    /**
     * Whether an error body is vendor A's own (its model answering behind rawPredict), which the native messages path
     * relays as it came; a google.rpc Status must be turned into the caller's shape by {@link #decode} instead.
     */
    public static boolean isAnthropicShape(String body) {
        return isAnthropicShape(Json.parseOrNull(body));
    }

    /** Whether a failure is Vertex refusing the gateway's access token, for the one forced refresh and retry. */
    public static boolean tokenRejected(Throwable failure) {
        return failure instanceof GatewayException g && TOKEN_REJECTED.equals(g.code());
    }

    private static boolean isAnthropicShape(JsonNode parsed) {
        return parsed != null && "error".equals(parsed.path("type").asText(null)) && parsed.path("error").isObject();
    }

    private static GatewayException fromStatus(int httpStatus, String status, String message, JsonNode details,
                                               VertexLocation at, String model) {
        String name = status != null ? status : statusOf(httpStatus);
        Map<String, String> hints = retryHint(details);
        return switch (name) {
            case "RESOURCE_EXHAUSTED" -> GatewayException.of(ErrorKind.RATE_LIMIT, "Vertex AI quota exhausted: " + message)
                    .withStatus(429).withCode(name).withHeaders(hints);
            case "UNAUTHENTICATED" -> GatewayException.of(ErrorKind.AUTHENTICATION,
                    "Vertex AI rejected the gateway's access token: " + message).withStatus(401).withCode(TOKEN_REJECTED);
            case "PERMISSION_DENIED" -> GatewayException.of(ErrorKind.PERMISSION, "Vertex AI denied the gateway's identity in project '"
                    + at.project() + "' (an IAM role such as roles/aiplatform.user, the Vertex AI API, or the model's terms in Model"
                    + " Garden may be missing): " + message).withStatus(403).withCode(PERMISSION_DENIED);
            case "NOT_FOUND" -> GatewayException.of(ErrorKind.NOT_FOUND, notFound(message, at, model))
                    .withStatus(404).withCode(MODEL_NOT_FOUND);
            case "INVALID_ARGUMENT", "FAILED_PRECONDITION", "OUT_OF_RANGE" ->
                    GatewayException.of(ErrorKind.INVALID_REQUEST, message).withStatus(400).withCode(name);
            case "UNAVAILABLE" -> GatewayException.of(ErrorKind.UNAVAILABLE, message).withStatus(503).withCode(name).withHeaders(hints);
            case "DEADLINE_EXCEEDED" -> GatewayException.of(ErrorKind.TIMEOUT, message).withStatus(504).withCode(name);
            case "INTERNAL", "UNKNOWN", "DATA_LOSS" -> GatewayException.of(ErrorKind.UPSTREAM, message).withStatus(500).withCode(name);
            default -> VendorErrorKinds.of(httpStatus >= 400 ? httpStatus : 500, message, null, status, hints);
        };
    }

    private static String notFound(String message, VertexLocation at, String model) {
        String location = at.location();
        Matcher named = MODEL_NAME.matcher(message);
        if (named.find()) {
            location = named.group(1);
            if (model == null) model = named.group(2);
        }
        String which = model == null ? "the model" : "model '" + model + "'";
        return "Vertex AI has no " + which + " in project '" + at.project() + "', location '" + location
                + "': check the deployment's model id and that the model is offered in that location. Vertex said: " + message;
    }

    /** The HTTP status's google.rpc code (https://cloud.google.com/apis/design/errors#handling_errors), for bodies without one. */
    private static String statusOf(int httpStatus) {
        return switch (httpStatus) {
            case 400 -> "INVALID_ARGUMENT";
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "PERMISSION_DENIED";
            case 404 -> "NOT_FOUND";
            case 429 -> "RESOURCE_EXHAUSTED";
            case 503 -> "UNAVAILABLE";
            case 504 -> "DEADLINE_EXCEEDED";
            case 500 -> "INTERNAL";
            default -> "";
        };
    }

    /** google.rpc.RetryInfo's {@code retryDelay} ("12s", "0.5s") as a {@code retry-after} in whole seconds. */
    private static Map<String, String> retryHint(JsonNode details) {
        Map<String, String> headers = new HashMap<>();
        if (details == null) return headers;
        for (JsonNode d : details) {
            String delay = d.path("retryDelay").asText("");
            if (d.path("@type").asText().endsWith("google.rpc.RetryInfo") && delay.endsWith("s")) {
                try {
                    headers.put("retry-after", String.valueOf((long) Math.ceil(Double.parseDouble(delay.substring(0, delay.length() - 1)))));
                } catch (NumberFormatException e) {
                    return Map.of(); // no usable hint
                }
            }
        }
        return headers;
    }
}
