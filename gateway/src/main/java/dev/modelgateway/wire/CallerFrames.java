package dev.modelgateway.wire;

import dev.modelgateway.sse.SseEvent;
import io.vertx.core.buffer.Buffer;

/**
 * Where a stream tap puts what the caller gets for one upstream read: upstream events relayed as they came,
 * and frames the tap writes itself, in the order given.
 */
public interface CallerFrames {
    /** Relays an upstream event as it came, its name (if any) included: its bytes, never decoded. */
    void relay(SseEvent event);

    /** The buffer to append frames of the tap's own to; they follow everything relayed or appended before. */
    Buffer buffer();

    /** Frames copied into {@code out}: every relayed event is appended to it as {@link SseEvent#appendFrame} writes it. */
    static CallerFrames into(Buffer out) {
        return new CallerFrames() {
            @Override
            public void relay(SseEvent event) {
                event.appendFrame(out);
            }

            @Override
            public Buffer buffer() {
                return out;
            }
        };
    }
}
