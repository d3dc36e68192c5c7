package dev.modelgateway.wire;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sse.SseEvent;
import io.vertx.core.buffer.Buffer;

/**
 * Watches an upstream SSE stream on its way to the caller: writes the frames the caller should see,
 * collects usage, and knows whether the stream ended properly.
 */
public interface StreamTap {
    /** Puts the frames for one upstream event in {@code out} (possibly none). */
    void onEvent(SseEvent event, CallerFrames out);

    /** The upstream closed its response normally; vendors without a terminal event (Gemini) finish here. */
    default void onUpstreamEnd(Buffer out) {
    }

    /** True once the stream has ended, properly or with an error event already written. */
    boolean complete();

    /** True when the stream ended with an error event (written by the vendor or by the gateway). */
    boolean failed();

    /** The usage the vendor has reported so far. */
    Usage usage();

    /**
     * The text relayed to the caller while the vendor has not reported its usage for the whole answer, for the
     * ledger's estimate of a stream cut before that report; null once it has, or where the tap keeps none.
     */
    RelayedText unbilled();

    /** Appends the protocol's own mid-stream error event and marks the stream complete and failed. */
    void appendError(GatewayException error, Buffer out);
}
