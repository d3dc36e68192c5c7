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
}
