package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.CallerFrames;
import dev.modelgateway.wire.RelayedText;
import dev.modelgateway.wire.TapState;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;

/**
 * Relays chat-completion chunks unchanged. The gateway always asks upstream for the usage chunk (the
 * ledger needs it); when the caller did not ask for it, that one chunk is observed and not forwarded.
 * Until it arrives the text of each chunk is kept ({@link RelayedText}), for a stream cut before it.
 */
public final class ChatNativeTap extends TapState {
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR_START = "{\"error\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] USAGE_MARK = "\"usage\":{".getBytes(StandardCharsets.US_ASCII);
    private static final RelayedText.Fields TEXT_FIELDS =
            new RelayedText.Fields("content", "reasoning_content", "refusal", "arguments");
    private final boolean callerWantsUsage;

    public ChatNativeTap(boolean callerWantsUsage) {
        super(new RelayedText(TEXT_FIELDS));
        this.callerWantsUsage = callerWantsUsage;
    }

    @Override
    public void onEvent(SseEvent e, CallerFrames out) {
        JsonNode usageChunk;
        if (e.dataIs(DONE)) {
            ended();
        } else if (e.dataStartsWith(ERROR_START)) { // a vendor's mid-stream error, relayed as it is
            endedWithError();
        } else if ((usageChunk = usageChunk(e)) != null) {
            reported(ChatUsage.toCanonical(usageChunk.get("usage")));
            JsonNode choices = usageChunk.path("choices");
            if (!callerWantsUsage && choices.isArray() && choices.isEmpty()) return;
        } else if (unbilled() != null) {
            relayed.add(e);
        }
        out.relay(e);
    }

    /** The chunk, parsed, when it carries a usage object; null for every other chunk. */
    private static JsonNode usageChunk(SseEvent e) {
        if (!e.dataContains(USAGE_MARK)) return null; // cheap pre-check: only the final chunk carries a usage object
        JsonNode chunk = Json.parseOrNull(e.dataArray(), e.dataOffset(), e.dataLength());
        return chunk != null && chunk.path("usage").isObject() ? chunk : null;
    }

    @Override
    protected void writeError(GatewayException error, Buffer out) {
        out.appendString("data: ").appendBuffer(Json.toBuffer(ChatErrors.body(error)))
                .appendString("\n\n");
    }
}
