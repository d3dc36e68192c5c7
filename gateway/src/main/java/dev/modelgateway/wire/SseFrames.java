package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;

/**
 * Writes SSE frames: {@code event:} lines only for protocols that name their events. The JSON goes straight
 * into the output buffer as UTF-8 (no String, no second encoding).
 */
public final class SseFrames {
    private static final byte[] EVENT = "event: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LF = {'\n'};
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "data: [DONE]\n\n".getBytes(StandardCharsets.US_ASCII);

    private SseFrames() { }

    public static void data(JsonNode payload, Buffer out) {
        out.appendBytes(DATA);
        Json.append(payload, out);
        out.appendBytes(END);
    }

    public static void named(String event, JsonNode payload, Buffer out) {
        out.appendBytes(EVENT).appendString(event).appendBytes(LF);
        data(payload, out);
    }

    public static void done(Buffer out) {
        out.appendBytes(DONE);
    }
}
