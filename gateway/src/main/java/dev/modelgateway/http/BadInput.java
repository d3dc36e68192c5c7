package dev.modelgateway.http;

import dev.modelgateway.error.GatewayException;
import io.vertx.core.http.HttpClosedException;

/**
 * Failures while reading a request that are the caller's doing, not the gateway's: a malformed HTTP body
 * framing (a chunk size that is not hex, an oversized chunk line), or the caller closing the connection. They
 * are answered (when still possible) with a 400 and logged as one line, never as an internal error.
 */
public final class BadInput {
    private BadInput() {
    }

    /** The caller went away while its request was read: nothing to answer. */
    public static boolean callerLeft(Throwable t) {
        return t instanceof HttpClosedException;
    }

    /** The 400 for a request body whose HTTP framing could not be decoded, or null when {@code t} is something else. */
    public static GatewayException framing(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getClass().getName().startsWith("io.netty.handler.codec.")) return malformed();
            StackTraceElement[] at = c.getStackTrace();
            for (int i = 0; i < Math.min(at.length, 8); i++) {
                if (at[i].getClassName().startsWith("io.netty.handler.codec.http.")) return malformed();
            }
        }
        return null;
    }

    private static GatewayException malformed() {
        return GatewayException.invalid(null, "The request body is malformed: its HTTP framing "
                + "(chunk sizes, Transfer-Encoding) could not be decoded.");
    }
}
