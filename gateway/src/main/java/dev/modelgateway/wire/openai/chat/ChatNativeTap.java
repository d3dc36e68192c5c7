package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.TapState;
import io.vertx.core.buffer.Buffer;

/**
 * Relays chat-completion chunks unchanged. The gateway always asks upstream for the usage chunk (the
 * ledger needs it); when the caller did not ask for it, that one chunk is observed and not forwarded.
 */
public final class ChatNativeTap extends TapState {
    private static final String USAGE_MARK = "\"usage\":{";
    private final boolean callerWantsUsage;

    public ChatNativeTap(boolean callerWantsUsage) {
        this.callerWantsUsage = callerWantsUsage;
    }

    @Override
    public void onEvent(SseEvent e, Buffer out) {
        String data = e.data();
        if ("[DONE]".equals(data)) {
            ended();
        } else if (data.startsWith("{\"error\"")) { // a vendor's mid-stream error, relayed as it is
            endedWithError();
        } else if (data.contains(USAGE_MARK)) { // cheap pre-check: only the final chunk carries a usage object
            JsonNode chunk = Json.parseOrNull(data);
            if (chunk != null && chunk.path("usage").isObject()) {
                usage = ChatUsage.toCanonical(chunk.get("usage"));
                JsonNode choices = chunk.path("choices");
                if (!callerWantsUsage && choices.isArray() && choices.isEmpty()) return;
            }
        }
        relay(e, out);
    }

    @Override
    protected void writeError(GatewayException error, Buffer out) {
        out.appendString("data: ").appendBuffer(Json.toBuffer(ChatErrors.body(error)))
                .appendString("\n\n");
    }
}
