package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.CallerFrames;
import dev.modelgateway.wire.RelayedText;
import dev.modelgateway.wire.TapState;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Relays vendor A's named SSE events unchanged. Usage arrives in {@code message_start} (input side) and
 * cumulatively in {@code message_delta}; only those two events are parsed (they also name a code execution
 * container). Until {@code message_delta} the text of the content block deltas is kept ({@link RelayedText}), for a
 * stream cut before it.
 */
public final class AnthropicNativeTap extends TapState {
    private static final byte[] MESSAGE_START = "message_start".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MESSAGE_DELTA = "message_delta".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MESSAGE_STOP = "message_stop".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR = "error".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BLOCK_DELTA = "content_block_delta".getBytes(StandardCharsets.US_ASCII);
    private static final RelayedText.Fields TEXT_FIELDS = new RelayedText.Fields("text", "thinking", "partial_json");
    private final String traceId;
    private final Consumer<String> answerIds;

    /** @param answerIds told the code execution container the stream names ({@link AccountObjects}) */
    public AnthropicNativeTap(String traceId, Consumer<String> answerIds) {
        super(new RelayedText(TEXT_FIELDS));
        this.traceId = traceId;
        this.answerIds = answerIds;
    }

    @Override
    public void onEvent(SseEvent e, CallerFrames out) {
        if (e.named(BLOCK_DELTA)) {
            if (unbilled() != null) relayed.add(e);
        } else if (e.named(MESSAGE_START)) {
            JsonNode msg = Json.parseOrNull(e.dataArray(), e.dataOffset(), e.dataLength());
            if (msg != null) {
                usage = AnthropicUsage.toCanonical(msg.path("message").path("usage"));
                container(msg.path("message"));
            }
        } else if (e.named(MESSAGE_DELTA)) {
            JsonNode delta = Json.parseOrNull(e.dataArray(), e.dataOffset(), e.dataLength());
            if (delta != null) {
                reported(AnthropicUsage.merge(usage, delta.path("usage")));
                container(delta.path("delta"));
            }
        } else if (e.named(MESSAGE_STOP)) {
            ended();
        } else if (e.named(ERROR)) {
            endedWithError();
        }
        out.relay(e);
    }

    private void container(JsonNode message) {
        String id = AccountObjects.answeredContainer(message);
        if (id != null) answerIds.accept(id);
    }

    @Override
    protected void writeError(GatewayException error, Buffer out) {
        out.appendString("event: error\ndata: ")
                .appendBuffer(Json.toBuffer(MessagesErrors.body(error).put("request_id", traceId)))
                .appendString("\n\n");
    }
}
