package dev.modelgateway.error;

/**
 * What went wrong, independent of any wire protocol. Each inbound protocol maps a kind to its own
 * error type string (messages: {@code invalid_request_error}, chat: {@code invalid_request_error}, ...).
 */
public enum ErrorKind {
    INVALID_REQUEST(400),
    AUTHENTICATION(401),
    PERMISSION(403),
    NOT_FOUND(404),
    REQUEST_TOO_LARGE(413),
    RATE_LIMIT(429),
    /** The gateway itself failed; never used for a caller's mistake. */
    INTERNAL(500),
    NOT_IMPLEMENTED(501),
    /** The upstream vendor failed or answered something unusable. */
    UPSTREAM(502),
    UNAVAILABLE(503),
    TIMEOUT(504),
    OVERLOADED(529);

    private final int defaultStatus;

    ErrorKind(int defaultStatus) {
        this.defaultStatus = defaultStatus;
    }

    public int defaultStatus() {
        return defaultStatus;
    }
}
