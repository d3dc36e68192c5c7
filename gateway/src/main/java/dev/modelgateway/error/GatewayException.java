package dev.modelgateway.error;

import java.util.Map;

/**
 * The one error type inside the gateway. Inbound protocols render it in their own shape; it carries
 * no stack trace because it is an expected outcome, not a bug.
 *
 * <p>The failures of an attempt that are neither the vendor's answer nor a timeout have a type of their own
 * (the nested classes), which {@link AttemptFailure#of} reads; each is built whole where it happens, with its
 * status, code and headers. A refinement ({@code with…}) of one is a plain {@code GatewayException}.
 *
 * @param param the offending request field (e.g. {@code messages[2].content}), or null
 * @param headers extra response headers, e.g. {@code retry-after} on a 429
 */
public sealed class GatewayException extends RuntimeException permits GatewayException.CircuitOpen,
        GatewayException.NotConfigured, GatewayException.Overloaded, GatewayException.CallerLeft,
        GatewayException.CredentialRefused, GatewayException.ShuttingDown {
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

    /** The deployment's circuit breaker refused the attempt: 503 {@code circuit_open}, until it half-opens. */
    public static final class CircuitOpen extends GatewayException {
        public CircuitOpen(String message, long retryAfterSeconds) {
            super(503, ErrorKind.UNAVAILABLE, message, null, "circuit_open",
                    Map.of("retry-after", Long.toString(retryAfterSeconds)));
        }
    }

    /** The vendor has no credential here, or the model is no longer served: 503 {@code vendor_not_configured}. */
    public static final class NotConfigured extends GatewayException {
        public NotConfigured(String message, Map<String, String> headers) {
            super(503, ErrorKind.UNAVAILABLE, message, null, "vendor_not_configured", headers);
        }
    }

    /**
     * The gateway's own saturation: every pooled connection to the vendor busy and the wait queue full, or the wait
     * for a connection (or the call's deadline) over before one came free; 503 {@code gateway_overloaded}.
     */
    public static final class Overloaded extends GatewayException {
        public Overloaded(String message, String retryAfterSeconds) {
            super(503, ErrorKind.UNAVAILABLE, message, null, "gateway_overloaded", Map.of("retry-after", retryAfterSeconds));
        }
    }

    /** The caller went away: nobody sees this error, the ledger says 499 {@code caller_left}. */
    public static final class CallerLeft extends GatewayException {
        public CallerLeft(String message) {
            super(499, ErrorKind.UNAVAILABLE, message, null, "caller_left", null);
        }
    }

    /**
     * The gateway is shutting down and its drain is over (docs/operations/shutdown-and-rollouts.md): 503
     * {@code server_shutting_down} with {@code retry-after: 1}, so that the caller's retry goes to another instance; a
     * stream already begun ends with its protocol's error event instead. Nothing said of the vendor.
     */
    public static final class ShuttingDown extends GatewayException {
        public static final String CODE = "server_shutting_down";

        public ShuttingDown() {
            super(503, ErrorKind.UNAVAILABLE, "The gateway is shutting down and ended this call at the end of its drain"
                    + " (server.drain_seconds); retry it.", null, CODE, Map.of("retry-after", "1"));
        }
    }

    /**
     * The vendor refused the gateway's own credential (its 401/403): the operator's problem, not the caller's, so the
     * caller gets a 502 {@code vendor_credential_refused} that must not look like its own key was refused.
     */
    public static final class CredentialRefused extends GatewayException {
        public CredentialRefused(String vendor, int status) {
            super(502, ErrorKind.UPSTREAM, "Vendor '" + vendor + "' refused the gateway's credential (HTTP " + status
                    + "); the operator must check its API key.", null, "vendor_credential_refused", null);
        }
    }
}
