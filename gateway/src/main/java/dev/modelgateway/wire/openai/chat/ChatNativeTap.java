package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.CallerFrames;
import dev.modelgateway.wire.TapState;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;

/**
 * Relays chat-completion chunks unchanged. The gateway always asks upstream for the usage chunk (the
 * ledger needs it); when the caller did not ask for it, that one chunk is observed and not forwarded.
 */
public final class ChatNativeTap extends TapState {
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR_START = "{\"error\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] USAGE_MARK = "\"usage\":{".getBytes(StandardCharsets.US_ASCII);
    private final boolean callerWantsUsage;

    public ChatNativeTap(boolean callerWantsUsage) {
        this.callerWantsUsage = callerWantsUsage;
    }

    @Override
    public void onEvent(SseEvent e, CallerFrames out) {
        if (e.dataIs(DONE)) {
            ended();
        } else if (e.dataStartsWith(ERROR_START)) { // a vendor's mid-stream error, relayed as it is
            endedWithError();
        } else if (e.dataContains(USAGE_MARK)) { // cheap pre-check: only the final chunk carries a usage object
            JsonNode chunk = Json.parseOrNull(e.dataArray(), e.dataOffset(), e.dataLength());
            if (chunk != null && chunk.path("usage").isObject()) {
                usage = ChatUsage.toCanonical(chunk.get("usage"));
                JsonNode choices = chunk.path("choices");
                if (!callerWantsUsage && choices.isArray() && choices.isEmpty()) return;
            }
        }
        out.relay(e);
    }

    @Override
    protected void writeError(GatewayException error, Buffer out) {
        out.appendString("data: ").appendBuffer(Json.toBuffer(ChatErrors.body(error)))
                .appendString("\n\n");
    }
}
