package dev.modelgateway.relay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.protocol.responses.ResponsesUsage;
import dev.modelgateway.sse.SseEvent;
import io.vertx.core.buffer.Buffer;

/**
 * Relays vendor B's Responses events unchanged (names and sequence numbers included). Only the terminal
 * events are parsed: {@code response.completed}/{@code incomplete} carry the usage for the ledger,
 * {@code response.failed} and {@code error} mark the stream failed.
 */
public final class ResponsesNativeTap implements StreamTap {
    private final String traceId;
    private Usage usage = Usage.ZERO;
    private boolean complete;
    private boolean failed;
    private long lastSequence = -1;

    public ResponsesNativeTap(String traceId) {
        this.traceId = traceId;
    }

    @Override
    public void onEvent(SseEvent e, Buffer out) {
        String type = e.event();
        if (type != null) {
            switch (type) {
                case "response.completed", "response.incomplete" -> {
                    JsonNode parsed = Json.parseOrNull(e.data());
                    if (parsed != null) usage = ResponsesUsage.toCanonical(parsed.path("response").get("usage"));
                    complete = true;
                }
                case "response.failed", "error" -> {
                    complete = true;
                    failed = true;
                }
                default -> { }
            }
        }
        if (type != null) out.appendString("event: ").appendString(type).appendString("\n");
        out.appendString("data: ").appendString(e.data()).appendString("\n\n");
        lastSequence++;
    }

    @Override
    public boolean complete() {
        return complete;
    }

    @Override
    public boolean failed() {
        return failed;
    }

    @Override
    public Usage usage() {
        return usage;
    }

    /** The Responses {@code error} event, numbered after the last relayed one. */
    @Override
    public void appendError(GatewayException error, Buffer out) {
        complete = true;
        failed = true;
        ObjectNode event = JsonNodeFactory.instance.objectNode().put("type", "error")
                .put("code", error.code() != null ? error.code() : "server_error")
                .put("message", error.getMessage() + " (trace id " + traceId + ")")
                .put("param", error.param())
                .put("sequence_number", lastSequence + 1);
        out.appendString("event: error\ndata: ").appendBuffer(Json.toBuffer(event)).appendString("\n\n");
    }
}
