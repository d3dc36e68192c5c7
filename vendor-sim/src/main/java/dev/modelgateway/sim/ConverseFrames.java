package dev.modelgateway.sim;

import io.vertx.core.buffer.Buffer;
import software.amazon.eventstream.HeaderValue;
import software.amazon.eventstream.Message;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * ConverseStream's frames on the wire: AWS event-stream messages (prelude, headers, JSON payload, CRC32s) encoded by
 * AWS's own reference library. An event carries {@code :message-type event}, {@code :event-type} and
 * {@code :content-type application/json}; an exception {@code :message-type exception} and {@code :exception-type}.
 */
final class ConverseFrames {
    static final String CONTENT_TYPE = "application/vnd.amazon.eventstream";

    private ConverseFrames() {
    }

    static Buffer event(String type, String json) {
        Map<String, HeaderValue> h = new LinkedHashMap<>();
        h.put(":event-type", HeaderValue.fromString(type));
        h.put(":content-type", HeaderValue.fromString("application/json"));
        h.put(":message-type", HeaderValue.fromString("event"));
        return frame(h, json);
    }

    static Buffer exception(String type, String json) {
        Map<String, HeaderValue> h = new LinkedHashMap<>();
        h.put(":exception-type", HeaderValue.fromString(type));
        h.put(":content-type", HeaderValue.fromString("application/json"));
        h.put(":message-type", HeaderValue.fromString("exception"));
        return frame(h, json);
    }

    /** The same frame with one payload byte flipped: its message CRC no longer matches (the {@code malformed} fault). */
    static Buffer corrupted(Buffer frame) {
        byte[] bytes = frame.getBytes();
        int payloadByte = bytes.length - 5; // the last payload byte, before the 4-byte message CRC
        bytes[payloadByte] ^= 0x20;
        return Buffer.buffer(bytes);
    }

    private static Buffer frame(Map<String, HeaderValue> headers, String json) {
        ByteBuffer b = new Message(headers, json.getBytes(StandardCharsets.UTF_8)).toByteBuffer();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return Buffer.buffer(out);
    }
}
