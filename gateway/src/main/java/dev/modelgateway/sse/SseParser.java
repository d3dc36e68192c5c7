package dev.modelgateway.sse;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Incremental SSE parser (WHATWG event-stream rules) over arbitrarily split network buffers.
 * Not thread-safe: one instance per stream, fed from one event loop.
 */
public final class SseParser {
    private final Consumer<SseEvent> sink;
    private byte[] pending = new byte[0];
    private String event;
    private StringBuilder data;
    private boolean skipLeadingLf;

    public SseParser(Consumer<SseEvent> sink) {
        this.sink = sink;
    }

    public void feed(Buffer chunk) {
        feed(chunk.getBytes());
    }

    public void feed(byte[] bytes) {
        byte[] buf = pending.length == 0 ? bytes : concat(pending, bytes);
        int lineStart = 0;
        for (int i = 0; i < buf.length; i++) {
            byte b = buf[i];
            if (skipLeadingLf) {
                skipLeadingLf = false;
                if (b == '\n' && i == lineStart) {
                    lineStart = i + 1;
                    continue;
                }
            }
            if (b == '\n' || b == '\r') {
                line(new String(buf, lineStart, i - lineStart, StandardCharsets.UTF_8));
                if (b == '\r') {
                    if (i + 1 < buf.length) {
                        if (buf[i + 1] == '\n') i++;
                    } else {
                        skipLeadingLf = true;
                    }
                }
                lineStart = i + 1;
            }
        }
        pending = lineStart == buf.length ? new byte[0] : java.util.Arrays.copyOfRange(buf, lineStart, buf.length);
    }

    /** Flushes an event that the upstream left without the final blank line. */
    public void end() {
        if (pending.length > 0) {
            line(new String(pending, StandardCharsets.UTF_8));
            pending = new byte[0];
        }
        dispatch();
    }

    private void line(String line) {
        if (line.isEmpty()) {
            dispatch();
            return;
        }
        if (line.charAt(0) == ':') return; // comment / keep-alive
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) value = value.substring(1);
        switch (field) {
            case "event" -> event = value;
            case "data" -> {
                if (data == null) data = new StringBuilder(value.length());
                else data.append('\n');
                data.append(value);
            }
            default -> { } // id, retry: not used by any vendor we relay
        }
    }

    private void dispatch() {
        if (data != null) sink.accept(new SseEvent(event, data.toString()));
        event = null;
        data = null;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
