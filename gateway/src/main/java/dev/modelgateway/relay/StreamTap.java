package dev.modelgateway.relay;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sse.SseEvent;
import io.vertx.core.buffer.Buffer;

/**
 * Watches an upstream SSE stream on its way to the caller: writes the frames the caller should see,
 * collects usage, and knows whether the stream ended properly.
 */
public interface StreamTap {
    /** Appends the frames for one upstream event to {@code out} (possibly none). */
    void onEvent(SseEvent event, Buffer out);

    /** True once the protocol's terminal event was seen. */
    boolean complete();

    Usage usage();

    /** Appends the protocol's own mid-stream error event. */
    void appendError(GatewayException error, Buffer out);
}
