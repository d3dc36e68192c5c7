package dev.modelgateway.wire;

import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sse.SseEvent;
import io.vertx.core.buffer.Buffer;

/**
 * The translated stream: vendor SSE → canonical events → the caller's protocol, one upstream event at a
 * time, so nothing is buffered beyond what the encoders themselves must hold back.
 */
public final class TranslatingTap extends TapState {
    private final StreamDecoder decoder;
    private final StreamEncoder encoder;
    private Buffer out;

    public TranslatingTap(StreamDecoder decoder, StreamEncoder encoder) {
        super(null); // the translated stream's usage comes from the decoder's events
        this.decoder = decoder;
        this.encoder = encoder;
    }

    @Override
    public void onEvent(SseEvent event, CallerFrames frames) {
        if (complete()) return;
        this.out = frames.buffer();
        try {
            decoder.decode(event, this::emit);
        } catch (GatewayException e) {
            appendError(e, out);
        }
    }

    @Override
    public void onUpstreamEnd(Buffer out) {
        if (complete()) return;
        this.out = out;
        try {
            decoder.end(this::emit);
        } catch (GatewayException e) {
            appendError(e, out);
        }
    }

    private void emit(StreamEvent event) {
        switch (event) {
            case StreamEvent.MessageStart s -> usage = s.usage() == null ? usage : s.usage();
            case StreamEvent.MessageDelta d -> usage = d.usage() == null ? usage : d.usage();
            case StreamEvent.MessageStop s -> ended();
            default -> { }
        }
        encoder.encode(event, out);
    }

    @Override
    protected void writeError(GatewayException error, Buffer out) {
        encoder.encodeError(error, out);
    }
}
