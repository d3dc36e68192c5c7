package dev.modelgateway.wire;

import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sse.SseEvent;

import java.util.function.Consumer;

/** Stateful, one per upstream stream. */
public interface StreamDecoder {
    /** @throws GatewayException for an upstream mid-stream error event */
    void decode(SseEvent event, Consumer<StreamEvent> out);

    /** Upstream closed: flush. */
    void end(Consumer<StreamEvent> out);
}
