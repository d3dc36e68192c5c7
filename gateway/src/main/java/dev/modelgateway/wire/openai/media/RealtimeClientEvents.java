package dev.modelgateway.wire.openai.media;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;

/**
 * What the gateway reads of a realtime client's events: whether one asks the vendor for a response
 * ({@code response.create}), so that the key is checked before each response is bought, and the vendor's
 * {@code error} event that answers one refused.
 */
public final class RealtimeClientEvents {
    private static final String RESPONSE_CREATE = "response.create";

    private RealtimeClientEvents() {
    }

    /**
     * Whether a client text frame may ask for a response: a whole message whose top-level {@code type} is
     * {@code response.create}, or whose type cannot be told (given twice: a vendor may read either), and the first
     * frame of a fragmented message, which is not reassembled to be read. Only the top-level fields are read, as
     * tokens: an audio append's payload is skipped, not built.
     */
    public static boolean mayCreateResponse(boolean last, Buffer frame) {
        if (!last) return true;
        String type = null;
        try (JsonParser p = Json.MAPPER.getFactory().createParser(frame.getBytes())) {
            if (p.nextToken() != JsonToken.START_OBJECT) return false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals("type")) {
                    if (type != null) return true;
                    type = p.getValueAsString();
                }
                p.skipChildren();
            }
        } catch (IOException notJson) {
            return RESPONSE_CREATE.equals(type); // the vendor refuses what it cannot parse
        }
        return RESPONSE_CREATE.equals(type);
    }

    /**
     * The vendor's realtime {@code error} event for a refused client event: {@code error} is the OpenAI error body's
     * {@code error} object, given the refused event's id (when the frame had one) as the vendor does.
     */
    public static Buffer refused(ObjectNode error, Buffer clientEvent) {
        JsonNode parsed = Json.parseOrNull(clientEvent);
        String clientEventId = parsed == null ? null : parsed.path("event_id").asText(null);
        ObjectNode event = JsonNodeFactory.instance.objectNode().put("type", "error")
                .put("event_id", "event_gw_" + Long.toHexString(System.nanoTime()));
        event.set("error", error.deepCopy().put("event_id", clientEventId));
        return Json.toBuffer(event);
    }
}
