package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.VendorErrorKinds;

/**
 * Bedrock Runtime errors: a JSON body {@code {"message": …}} (sometimes with {@code __type}) under the HTTP status, and
 * in a stream an exception event named by its type with the same body (API reference, "ConverseStream", Errors).
 */
final class ConverseErrors {
    private ConverseErrors() {
    }

    /**
     * An exception event of ConverseStream, by its event type. The model's own failures (Bedrock answers them 424 and
     * 408) are the vendor's, not the caller's mistake: 502 and 504, so that they count against the deployment.
     */
    static GatewayException fromStreamException(String type, JsonNode payload) {
        int status = switch (type) {
            case "throttlingException" -> 429;
            case "validationException" -> 400;
            case "serviceUnavailableException" -> 503;
            case "modelStreamErrorException" -> 502;
            case "modelTimeoutException" -> 504;
            default -> 500;
        };
        String message = payload == null ? type : payload.path("message").asText(type);
        return VendorErrorKinds.of(status, message, null, type, null);
    }

    /** {@code com.amazon.coral.validate#ValidationException} or {@code ValidationException:http://…} → the bare name. */
    private static String type(String t) {
        if (t == null) return null;
        int colon = t.indexOf(':');
        if (colon >= 0) t = t.substring(0, colon);
        int hash = t.lastIndexOf('#');
        return hash >= 0 ? t.substring(hash + 1) : t;
    }
}
