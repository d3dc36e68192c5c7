package dev.modelgateway.upstream;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;

/**
 * Sends a request body to a vendor. A large body goes in slices, each written when the connection can take it:
 * sent whole, Netty copies it into one direct buffer of its size on the event loop (a 32 MB body: 100-130 ms of
 * that loop's CPU zeroing and copying native memory, every other request on the loop waiting; docs/security.md).
 * A slice is copied into a small pooled buffer, and the loop serves other work between them.
 */
final class BodyWriter {
    /** Bodies up to this size go in one write; larger ones in slices of this size. */
    static final int SLICE_BYTES = 64 * 1024;

    private BodyWriter() {
    }

    static Future<HttpClientResponse> send(HttpClientRequest req, Buffer body) {
        if (body.length() <= SLICE_BYTES) return req.send(body);
        req.putHeader(HttpHeaders.CONTENT_LENGTH, String.valueOf(body.length()));
        writeFrom(req, body, 0);
        return req.response();
    }

    /** Writes slices until the connection's queue is full, then again when it drains; a reset request fails its response. */
    private static void writeFrom(HttpClientRequest req, Buffer body, int from) {
        int at = from;
        while (at < body.length()) {
            int to = Math.min(body.length(), at + SLICE_BYTES);
            req.write(body.slice(at, to));
            at = to;
            if (at < body.length() && req.writeQueueFull()) {
                int next = at;
                req.drainHandler(v -> writeFrom(req, body, next));
                return;
            }
        }
        req.end();
    }
}
