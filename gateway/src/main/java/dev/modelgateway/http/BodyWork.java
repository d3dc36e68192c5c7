package dev.modelgateway.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.concurrent.Callable;

/**
 * Work that grows with a request's body (parsing, validating, copying or encoding it) runs on a worker thread
 * when the body is large: a 30 MB body held an event loop, and every request on it, for hundreds of
 * milliseconds per step (docs/security.md). Small bodies are handled in place, where a worker hop costs more
 * than the work. Called from an event loop, the result arrives back on that loop.
 */
public final class BodyWork {
    /** Bodies up to this size are handled in place. */
    public static final long INLINE_BYTES = 256 * 1024;

    private BodyWork() {
    }

    public static <T> Future<T> run(Vertx vertx, long bodyBytes, Callable<T> work) {
        if (bodyBytes > INLINE_BYTES) return vertx.executeBlocking(work, false);
        try {
            return Future.succeededFuture(work.call());
        } catch (Exception e) {
            return Future.failedFuture(e);
        }
    }
}
