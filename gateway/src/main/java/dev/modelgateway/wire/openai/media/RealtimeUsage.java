package dev.modelgateway.wire.openai.media;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * Sums the usage of a realtime session from the vendor's {@code response.done} events
 * ({@code response.usage}). Text messages are reassembled from their frames; only the top-level
 * {@code type} is read from each (streaming, so audio deltas are not parsed), and a message is parsed
 * whole only when it is a {@code response.done}.
 */
public final class RealtimeUsage {
    private final Consumer<Usage> onResponse;
    private Usage total = Usage.ZERO;
    /** The text message being reassembled from continuation frames, null between messages. */
    private Buffer pending;

    /** @param onResponse told the usage of each response as its {@code response.done} arrives */
    public RealtimeUsage(Consumer<Usage> onResponse) {
        this.onResponse = onResponse;
    }

    /**
     * One WebSocket frame from the vendor, as its flags and payload (RFC 6455 §5.4: a text message may come
     * as a first text frame and continuation frames, the last one final).
     */
    public void accept(boolean text, boolean continuation, boolean last, Buffer data) {
        if (text) {
            if (last) inspect(data);
            else pending = data.copy();
        } else if (continuation && pending != null) {
            pending.appendBuffer(data);
            if (last) {
                Buffer message = pending;
                pending = null;
                inspect(message);
            }
        }
    }

    public Usage total() {
        return total;
    }

    private void inspect(Buffer message) {
        byte[] bytes = message.getBytes();
        if (!"response.done".equals(topLevelType(bytes))) return;
        JsonNode parsed = Json.parseOrNull(bytes, 0, bytes.length);
        JsonNode usage = parsed == null ? null : parsed.path("response").path("usage");
        if (usage == null || !usage.isObject()) return;
        // OpenAI's input_tokens include the cached ones; the canonical usage keeps them apart
        long cached = usage.path("input_token_details").path("cached_tokens").asLong(0);
        long input = usage.path("input_tokens").asLong(0);
        Usage response = new Usage(Math.max(0, input - cached), cached, 0, 0, usage.path("output_tokens").asLong(0), 0);
        total = total.plus(response);
        onResponse.accept(response);
    }

    private static String topLevelType(byte[] bytes) {
        try (JsonParser p = Json.MAPPER.getFactory().createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) return null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals("type")) return p.getValueAsString();
                p.skipChildren();
            }
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
