package dev.modelgateway.wire;

import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.buffer.Buffer;

/** Stateful, one per response stream. */
public interface StreamEncoder {
    /** Appends zero or more complete SSE frames (bytes ready for the socket) for one canonical event. */
    void encode(StreamEvent event, Buffer out);

    /** Frames that end the stream with this protocol's own error event after partial output. */
    void encodeError(GatewayException e, Buffer out);
}
