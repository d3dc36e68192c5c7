package dev.modelgateway.sse;

import io.vertx.core.buffer.Buffer;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Incremental SSE parser (WHATWG event-stream rules) over arbitrarily split network buffers.
 * It sits on every stream of both paths, so it decodes each complete line straight from the network
 * bytes once, and only a line split across reads is held back (and copied) until its end arrives.
 * Not thread-safe: one instance per stream, fed from one event loop.
 */
public final class SseParser {
    private final Consumer<SseEvent> sink;
    /** The unfinished last line of the previous read. */
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream(256);
    private String event;
    private String data;
    private StringBuilder multiLineData;
    private boolean skipLeadingLf;

    public SseParser(Consumer<SseEvent> sink) {
        this.sink = sink;
    }

    public void feed(Buffer chunk) {
        feed(chunk.getBytes());
    }

    public void feed(byte[] bytes) {
        int lineStart = 0;
        int i = 0;
        if (skipLeadingLf && bytes.length > 0) {
            skipLeadingLf = false;
            if (bytes[0] == '\n') lineStart = i = 1;
        }
        for (; i < bytes.length; i++) {
            byte b = bytes[i];
            if (b != '\n' && b != '\r') continue;
            if (partial.size() > 0) {
                partial.write(bytes, lineStart, i - lineStart);
                line(partial.toString(StandardCharsets.UTF_8));
                partial.reset();
            } else {
                line(new String(bytes, lineStart, i - lineStart, StandardCharsets.UTF_8));
            }
            if (b == '\r') {
                if (i + 1 < bytes.length) {
                    if (bytes[i + 1] == '\n') i++;
                } else {
                    skipLeadingLf = true;
                }
            }
            lineStart = i + 1;
        }
        if (lineStart < bytes.length) partial.write(bytes, lineStart, bytes.length - lineStart);
    }

    /** Flushes an event that the upstream left without the final blank line. */
    public void end() {
        if (partial.size() > 0) {
            line(partial.toString(StandardCharsets.UTF_8));
            partial.reset();
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
        if (colon < 0) return; // a field without value: only "data" would matter, and vendors never send it bare
        int valueStart = colon + 1 < line.length() && line.charAt(colon + 1) == ' ' ? colon + 2 : colon + 1;
        if (line.startsWith("data")) {
            if (colon != 4) return;
            String value = line.substring(valueStart);
            if (data == null) {
                data = value;
            } else {
                if (multiLineData == null) multiLineData = new StringBuilder(data);
                multiLineData.append('\n').append(value);
            }
        } else if (colon == 5 && line.startsWith("event")) {
            event = line.substring(valueStart);
        } // id, retry: not used by any vendor we relay
    }

    private void dispatch() {
        if (data != null) {
            sink.accept(new SseEvent(event, multiLineData != null ? multiLineData.toString() : data));
        }
        event = null;
        data = null;
        multiLineData = null;
    }
}
