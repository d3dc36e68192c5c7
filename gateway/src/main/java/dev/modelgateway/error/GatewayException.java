package dev.modelgateway.error;

import java.util.Map;

/**
 * The one error type inside the gateway. Inbound protocols render it in their own shape; it carries
 * no stack trace because it is an expected outcome, not a bug.
 *
 * @param param the offending request field (e.g. {@code messages[2].content}), or null
 * @param headers extra response headers, e.g. {@code retry-after} on a 429
 */
public final class GatewayException extends RuntimeException {
    private final int status;
    private final ErrorKind kind;
    private final String param;
    private final String code;
    private final Map<String, String> headers;

    private GatewayException(int status, ErrorKind kind, String message, String param, String code,
                             Map<String, String> headers) {
        super(message, null, false, false);
        this.status = status;
        this.kind = kind;
        this.param = param;
        this.code = code;
        this.headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    public static GatewayException invalid(String param, String message) {
        return new GatewayException(400, ErrorKind.INVALID_REQUEST, message, param, null, null);
    }

    public static GatewayException of(ErrorKind kind, String message) {
        return new GatewayException(kind.defaultStatus(), kind, message, null, null, null);
    }

    /** The same error answered with another status (e.g. a vendor's own 4xx kept as it is). */
    public GatewayException withStatus(int status) {
        return new GatewayException(status, kind, getMessage(), param, code, headers);
    }

    /** The same error naming the offending request field. */
    public GatewayException withParam(String param) {
        return new GatewayException(status, kind, getMessage(), param, code, headers);
    }

    /** The same error with a machine-readable code for the protocol's {@code code} field. */
    public GatewayException withCode(String code) {
        return new GatewayException(status, kind, getMessage(), param, code, headers);
    }

    /** The same error with these response headers (e.g. retry hints) instead of its own. */
    public GatewayException withHeaders(Map<String, String> headers) {
        return new GatewayException(status, kind, getMessage(), param, code, headers);
    }

    public int status() { return status; }
    public ErrorKind kind() { return kind; }
    public String param() { return param; }
    public String code() { return code; }
    public Map<String, String> headers() { return headers; }
}
