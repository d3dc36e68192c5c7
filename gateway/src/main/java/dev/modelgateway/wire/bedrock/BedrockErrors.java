package dev.modelgateway.wire.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.VendorErrorKinds;
import dev.modelgateway.wire.VendorErrors;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Bedrock Runtime's errors as the gateway's, whether they come as an HTTP answer or as an exception frame in the
 * middle of a stream. The type is the {@code x-amzn-ErrorType} header (its part before ':'), else the body's
 * {@code code} / {@code __type} (AWS restJson1 protocol); the message is the body's {@code message} /
 * {@code Message}, or the {@code x-amzn-errormessage} header when the body is {@code {}} or empty. The kinds follow
 * the retry rule (routing/RetryRule): throttling and quota are 429 (retried elsewhere, then the next model),
 * an unready model is retried, the service's 5xx are retried, access denied and validation stop, and a credential
 * AWS refuses is the operator's (502 {@code vendor_credential_refused}, next model). Statuses and names: the
 * Bedrock Runtime API reference, "InvokeModel" / "InvokeModelWithResponseStream", Errors.
 */
public final class BedrockErrors {
    private static final String VENDOR = "bedrock";

    private BedrockErrors() {
    }

    /**
     * A non-2xx answer of Bedrock Runtime (JSON body, also on a stream endpoint).
     *
     * @param header the answer's headers, by name (case-insensitive)
     * @param region the deployment's region, for the inference profile an on-demand refusal names; may be null
     */
    public static GatewayException fromResponse(int status, Function<String, String> header, byte[] body, String region) {
        JsonNode parsed = body == null || body.length == 0 ? null : Json.parseOrNull(body, 0, body.length);
        String type = typeName(header.apply("x-amzn-ErrorType"));
        if (type == null && parsed != null) type = typeName(text(parsed, "code", "__type"));
        String message = parsed == null ? null : text(parsed, "message", "Message");
        if (message == null) message = header.apply("x-amzn-errormessage");
        if (message == null && parsed == null && body != null && body.length > 0) {
            message = new String(body, 0, Math.min(body.length, 1000), StandardCharsets.UTF_8);
        }
        String retryAfter = header.apply("retry-after");
        return of(type, status, message, region, retryAfter == null ? Map.of() : Map.of("retry-after", retryAfter));
    }

    /**
     * An exception frame of a stream ({@code :message-type} {@code exception}, {@code :exception-type} such as
     * {@code throttlingException}, payload {@code {"message": …}}), or an {@code error} frame
     * ({@code :error-code}, {@code :error-message}).
     */
    public static GatewayException fromFrame(EventStreamMessage frame, String region) {
        if ("error".equals(frame.messageType())) {
            return of(frame.text(":error-code"), 0, frame.text(":error-message"), region, Map.of());
        }
        byte[] payload = frame.payload();
        JsonNode parsed = payload.length == 0 ? null : Json.parseOrNull(payload, 0, payload.length);
        String message = parsed == null ? null : text(parsed, "message", "Message");
        if (parsed != null && parsed.has("originalStatusCode")) {
            // ModelStreamErrorException carries the model's own failure
            message = (message == null ? "" : message + " ") + "(model status " + parsed.path("originalStatusCode").asText()
                    + (parsed.hasNonNull("originalMessage") ? ": " + parsed.path("originalMessage").asText() : "") + ")";
        }
        return of(frame.exceptionType(), 0, message, region, Map.of());
    }

    /** The errors of an operation on Bedrock (CountTokens, embeddings), in the caller's shape. */
    public static VendorErrors operationErrors() {
        return new VendorErrors.Mapped(e -> fromResponse(e.status(), e.headers()::get, e.body() == null ? null : e.body().getBytes(), null));
    }

    /** A corrupt stream (CRC, lengths, a frame above the cap): the vendor's failure, never the caller's. */
    public static GatewayException corruptStream(EventStreamException e) {
        return GatewayException.of(ErrorKind.UPSTREAM, "Vendor 'bedrock' sent an unreadable event stream: " + e.getMessage() + ".")
                .withCode("event_stream_corrupt");
    }

    /**
     * @param type   the AWS error type, in either case ({@code ThrottlingException}, {@code throttlingException}); null
     *               when unknown
     * @param status the HTTP status, 0 for a stream frame (then the type's own)
     */
    static GatewayException of(String type, int status, String message, String region, Map<String, String> headers) {
        String name = type == null || type.isEmpty() ? "" : Character.toUpperCase(type.charAt(0)) + type.substring(1);
        String text = message == null || message.isBlank() ? (name.isEmpty() ? "Bedrock answered HTTP " + status : name) : message;
        GatewayException e = switch (name) {
            case "ThrottlingException", "ServiceQuotaExceededException", "ModelNotReadyException" ->
                    GatewayException.of(ErrorKind.RATE_LIMIT, text);
            case "ServiceUnavailableException" -> GatewayException.of(ErrorKind.UNAVAILABLE, text);
            case "InternalServerException" -> GatewayException.of(ErrorKind.UPSTREAM, text).withStatus(500);
            case "ModelTimeoutException" -> GatewayException.of(ErrorKind.TIMEOUT, text);
            case "ModelStreamErrorException", "ModelErrorException" -> GatewayException.of(ErrorKind.UPSTREAM, text);
            case "AccessDeniedException" -> GatewayException.of(ErrorKind.PERMISSION, text);
            case "ResourceNotFoundException" -> GatewayException.of(ErrorKind.NOT_FOUND, text);
            case "ValidationException", "ConflictException" -> GatewayException.invalid(null, onDemand(text, region));
            // AWS refused the gateway's own signature or keys: the operator's problem, never shown as the caller's
            case "UnrecognizedClientException", "InvalidSignatureException", "IncompleteSignatureException",
                 "MissingAuthenticationTokenException", "ExpiredTokenException", "InvalidClientTokenId",
                 "SignatureDoesNotMatch" -> new GatewayException.CredentialRefused(VENDOR, status > 0 ? status : 403);
            default -> status > 0 ? VendorErrorKinds.of(status, text, null, null, null)
                    : GatewayException.of(ErrorKind.UPSTREAM, text);
        };
        if (e instanceof GatewayException.CredentialRefused) return e;
        return (name.isEmpty() ? e : e.withCode(name)).withHeaders(headers);
    }

    /**
     * Bedrock's refusal of a model id it serves only through an inference profile ("Invocation of model ID … with
     * on-demand throughput isn't supported. Retry your request with the ID or ARN of an inference profile that
     * contains this model."), rewritten to tell the operator which id to configure; other messages as they came.
     */
    static String onDemand(String message, String region) {
        if (!message.toLowerCase(Locale.ROOT).contains("on-demand throughput")) return message;
        int at = message.indexOf("model ID ");
        String model = null;
        if (at >= 0) {
            int start = at + "model ID ".length();
            int end = message.indexOf(' ', start);
            model = message.substring(start, end < 0 ? message.length() : end);
        }
        return message + " The deployment's model must be an inference profile: configure "
                + (model == null ? "the model id" : BedrockModelId.suggestedProfiles(model, region))
                + ", or an inference profile's ARN (docs/clouds.md, \"Bedrock model ids\").";
    }

    private static String typeName(String raw) {
        if (raw == null || raw.isBlank()) return null;
        String t = raw;
        int colon = t.indexOf(':');
        if (colon >= 0) t = t.substring(0, colon);
        int hash = t.lastIndexOf('#');
        if (hash >= 0) t = t.substring(hash + 1);
        return t.trim();
    }

    private static String text(JsonNode node, String first, String second) {
        JsonNode v = node.get(first);
        if (v == null || !v.isTextual()) v = node.get(second);
        return v != null && v.isTextual() ? v.asText() : null;
    }
}
