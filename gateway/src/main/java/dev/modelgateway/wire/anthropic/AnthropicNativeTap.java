package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.TapState;
import io.vertx.core.buffer.Buffer;

/**
 * Relays vendor A's named SSE events unchanged. Usage arrives in {@code message_start} (input side) and
 * cumulatively in {@code message_delta}; only those two events are parsed.
 */
public final class AnthropicNativeTap extends TapState {
    private final String traceId;

    public AnthropicNativeTap(String traceId) {
        this.traceId = traceId;
    }

    @Override
    public void onEvent(SseEvent e, Buffer out) {
        String name = e.event();
        if ("message_start".equals(name)) {
            JsonNode msg = Json.parseOrNull(e.data());
            if (msg != null) usage = AnthropicUsage.toCanonical(msg.path("message").path("usage"));
        } else if ("message_delta".equals(name)) {
            JsonNode delta = Json.parseOrNull(e.data());
            if (delta != null) usage = AnthropicUsage.merge(usage, delta.path("usage"));
        } else if ("message_stop".equals(name)) {
            ended();
        } else if ("error".equals(name)) {
            endedWithError();
        }
        relay(e, out);
    }

    @Override
    protected void writeError(GatewayException error, Buffer out) {
        out.appendString("event: error\ndata: ")
                .appendBuffer(Json.toBuffer(MessagesErrors.body(error).put("request_id", traceId)))
                .appendString("\n\n");
    }
}
