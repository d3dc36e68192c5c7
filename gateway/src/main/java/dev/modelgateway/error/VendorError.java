package dev.modelgateway.error;

import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;

/** A vendor answered with a non-2xx status; kept whole so the caller can get it back unchanged. */
public final class VendorError extends RuntimeException {
    private final int status;
    private final MultiMap headers;
    private final Buffer body;

    public VendorError(int status, MultiMap headers, Buffer body) {
        super("upstream answered HTTP " + status, null, false, false);
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    public int status() { return status; }
    public MultiMap headers() { return headers; }
    public Buffer body() { return body; }

    /**
     * The vendor refused the gateway's own credential (401/403): the operator's problem, not the caller's, so the
     * caller gets a 502 that must not look like its own key was refused.
     */
    public static GatewayException credentialRefused(String vendor, int status) {
        return GatewayException.of(ErrorKind.UPSTREAM, "Vendor '" + vendor + "' refused the gateway's credential (HTTP "
                + status + "); the operator must check its API key.").withCode(AttemptFailure.CREDENTIAL_REFUSED);
    }
}
