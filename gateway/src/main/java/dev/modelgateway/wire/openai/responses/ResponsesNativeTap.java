package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * Relays vendor B's Responses events unchanged (names and sequence numbers included). Only the terminal
 * events are parsed: {@code response.completed}/{@code incomplete} carry the usage for the ledger,
 * {@code response.failed} and {@code error} mark the stream failed. The text of the deltas is kept meanwhile
 * ({@link RelayedText}), for a stream cut before its usage.
 */
public final class ResponsesNativeTap extends TapState {
    private static final byte[] COMPLETED = "response.completed".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INCOMPLETE = "response.incomplete".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FAILED = "response.failed".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR = "error".getBytes(StandardCharsets.US_ASCII);
    /** The delta events whose {@code delta} is generated text (not {@code response.audio.delta}'s base64). */
    private static final byte[][] TEXT_DELTAS = names("response.output_text.delta", "response.refusal.delta",
            "response.function_call_arguments.delta", "response.reasoning_text.delta",
            "response.reasoning_summary_text.delta", "response.custom_tool_call_input.delta",
            "response.audio.transcript.delta");
    private static final RelayedText.Fields TEXT_FIELD = new RelayedText.Fields("delta");
    private final String traceId;
    private final Consumer<String> answerIds;
    private long lastSequence = -1;

    /** @param answerIds told the vendor's response id and output item ids once the response is over (completed or incomplete) */
    public ResponsesNativeTap(String traceId, Consumer<String> answerIds) {
        super(new RelayedText(TEXT_FIELD));
        this.traceId = traceId;
        this.answerIds = answerIds;
    }

    private static byte[][] names(String... names) {
        byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) bytes[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        return bytes;
    }

    @Override
    public void onEvent(SseEvent e, CallerFrames out) {
        if (e.named(COMPLETED) || e.named(INCOMPLETE)) {
            JsonNode parsed = Json.parseOrNull(e.dataArray(), e.dataOffset(), e.dataLength());
            if (parsed != null) {
                reported(ResponsesUsage.ofResponse(parsed.path("response")));
                ResponsesNative.referableIds(parsed.path("response")).forEach(answerIds);
            }
            ended();
        } else if (e.named(FAILED) || e.named(ERROR)) {
            endedWithError();
        } else if (textDelta(e)) {
            relayed.add(e);
        }
        out.relay(e);
        lastSequence++;
    }

    private static boolean textDelta(SseEvent e) {
        for (byte[] name : TEXT_DELTAS) if (e.named(name)) return true;
        return false;
    }

    /** The Responses {@code error} event, numbered after the last relayed one. */
    @Override
    protected void writeError(GatewayException error, Buffer out) {
        ObjectNode event = JsonNodeFactory.instance.objectNode().put("type", "error")
                .put("code", error.code() != null ? error.code() : "server_error")
                .put("message", error.getMessage() + " (trace id " + traceId + ")")
                .put("param", error.param())
                .put("sequence_number", lastSequence + 1);
        out.appendString("event: error\ndata: ").appendBuffer(Json.toBuffer(event)).appendString("\n\n");
    }
}
