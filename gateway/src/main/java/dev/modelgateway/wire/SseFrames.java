package dev.modelgateway.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.core.buffer.Buffer;

/** Writes SSE frames: {@code event:} lines only for protocols that name their events. */
public final class SseFrames {
    private static final ObjectMapper JSON = new ObjectMapper();

    private SseFrames() { }

    public static void data(JsonNode payload, Buffer out) {
        out.appendString("data: ").appendString(write(payload)).appendString("\n\n");
    }

    public static void named(String event, JsonNode payload, Buffer out) {
        out.appendString("event: ").appendString(event).appendString("\n");
        data(payload, out);
    }

    public static void done(Buffer out) {
        out.appendString("data: [DONE]\n\n");
    }

    private static String write(JsonNode n) {
        try {
            return JSON.writeValueAsString(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
