package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.StreamDecoder;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;

/** Anthropic SSE → canonical events (nearly one to one; the canonical stream is Anthropic-shaped). */
final class AnthropicStreamDecoder implements StreamDecoder {
    private static final byte[] CONTENT_BLOCK_DELTA = "content_block_delta".getBytes(StandardCharsets.US_ASCII);
    private Usage usage = Usage.ZERO;
    private final Set<Integer> open = new LinkedHashSet<>();
    private boolean deltaSent;
    private boolean stopSent;

    @Override
    public void decode(SseEvent event, Consumer<StreamEvent> out) {
        if (event.named(CONTENT_BLOCK_DELTA)) {
            StreamEvent delta = BlockDelta.read(event.dataArray(), event.dataOffset(), event.dataLength());
            if (delta != null) {
                out.accept(delta);
                return;
            }
        }
        JsonNode n = Json.parseOrNull(event.dataArray(), event.dataOffset(), event.dataLength());
        if (n == null) throw GatewayException.of(ErrorKind.UPSTREAM, "unparseable upstream event: " + event.data());
        String type = n.path("type").asText(event.event());
        switch (type) {
            case "message_start" -> {
                JsonNode m = n.path("message");
                usage = AnthropicUsage.merge(usage, m.get("usage"));
                out.accept(new StreamEvent.MessageStart(m.path("id").asText(null), m.path("model").asText(null), usage));
            }
            case "content_block_start" -> blockStart(n.path("index").asInt(), n.path("content_block"), out);
            case "content_block_delta" -> delta(n.path("index").asInt(), n.path("delta"), out);
            case "content_block_stop" -> {
                int i = n.path("index").asInt();
                if (open.remove(i)) out.accept(new StreamEvent.BlockStop(i));
            }
            case "message_delta" -> {
                closeOpen(out);
                usage = AnthropicUsage.merge(usage, n.get("usage"));
                JsonNode d = n.path("delta");
                deltaSent = true;
                out.accept(new StreamEvent.MessageDelta(AnthropicStopReasons.of(d.path("stop_reason").asText(null)),
                        d.path("stop_sequence").asText(null), usage));
            }
            case "message_stop" -> {
                stopSent = true;
                out.accept(new StreamEvent.MessageStop());
            }
            case "ping" -> out.accept(new StreamEvent.Ping());
            case "error" -> throw AnthropicErrors.fromError(0, n.path("error"));
            default -> { } // future event types
        }
    }

    private void blockStart(int i, JsonNode b, Consumer<StreamEvent> out) {
        open.add(i);
        switch (b.path("type").asText()) {
            case "text" -> {
                out.accept(new StreamEvent.TextStart(i));
                String initial = b.path("text").asText("");
                if (!initial.isEmpty()) out.accept(new StreamEvent.TextDelta(i, initial));
            }
            case "thinking" -> {
                out.accept(new StreamEvent.ThinkingStart(i, SignatureOrigin.ANTHROPIC));
                String initial = b.path("thinking").asText("");
                if (!initial.isEmpty()) out.accept(new StreamEvent.ReasoningDelta(i, initial));
                String sig = b.path("signature").asText("");
                if (!sig.isEmpty()) out.accept(new StreamEvent.SignatureDelta(i, sig, SignatureOrigin.ANTHROPIC));
            }
            case "redacted_thinking" -> out.accept(new StreamEvent.RedactedThinkingStart(i, b.path("data").asText()));
            // The start block's input is always {} — never forward it as an argument fragment.
            case "tool_use" -> out.accept(new StreamEvent.ToolUseStart(i, b.path("id").asText(), b.path("name").asText(), null));
            default -> out.accept(new StreamEvent.VendorBlockStart(i, (ObjectNode) b));
        }
    }

    private void delta(int i, JsonNode d, Consumer<StreamEvent> out) {
        switch (d.path("type").asText()) {
            case "text_delta" -> out.accept(new StreamEvent.TextDelta(i, d.path("text").asText("")));
            case "thinking_delta" -> out.accept(new StreamEvent.ReasoningDelta(i, d.path("thinking").asText("")));
            case "signature_delta" -> out.accept(new StreamEvent.SignatureDelta(i, d.path("signature").asText(""),
                    SignatureOrigin.ANTHROPIC));
            case "input_json_delta" -> out.accept(new StreamEvent.ToolArgumentsDelta(i, d.path("partial_json").asText("")));
            default -> out.accept(new StreamEvent.VendorDelta(i, (ObjectNode) d));
        }
    }

    private void closeOpen(Consumer<StreamEvent> out) {
        for (Integer i : open) out.accept(new StreamEvent.BlockStop(i));
        open.clear();
    }

    @Override
    public void end(Consumer<StreamEvent> out) {
        closeOpen(out);
        if (deltaSent && !stopSent) {
            stopSent = true;
            out.accept(new StreamEvent.MessageStop());
        }
    }
}
