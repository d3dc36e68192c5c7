package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.StreamDecoder;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * ConverseStream events → canonical events. Each SSE event is one event of the AWS event stream: its name the
 * {@code :event-type} ({@code messageStart}, {@code contentBlockStart}, {@code contentBlockDelta},
 * {@code contentBlockStop}, {@code messageStop}, {@code metadata}), its data the JSON payload (API reference,
 * "ConverseStreamOutput").
 *
 * <p>Only tool calls open with a {@code contentBlockStart}; a text or reasoning block begins with its first delta, so
 * blocks are opened on first sight, and each Converse {@code contentBlockIndex} gets a canonical index in that order.
 * The stop reason arrives in {@code messageStop} and the usage after it, in {@code metadata}: the canonical
 * {@code MessageDelta} waits for the usage (or for the end of the stream). An exception event (named by its type,
 * such as {@code modelStreamErrorException}) is thrown as the vendor's error.
 */
final class ConverseStreamDecoder implements StreamDecoder {
    private final Map<Integer, Integer> indices = new HashMap<>();
    private final Set<Integer> open = new LinkedHashSet<>();
    private int nextIndex;
    private boolean started;
    private StopReason stopReason;
    private String stopSequence;
    private boolean finished;

    @Override
    public void decode(SseEvent event, Consumer<StreamEvent> out) {
        String type = event.event();
        JsonNode n = Json.parseOrNull(event.dataArray(), event.dataOffset(), event.dataLength());
        if (type != null && type.endsWith("Exception")) throw ConverseErrors.fromStreamException(type, n);
        if (n == null || !n.isObject()) throw GatewayException.of(ErrorKind.UPSTREAM, "unparseable upstream event: " + event.data());
        switch (type == null ? "" : type) {
            case "messageStart" -> start(out);
            case "contentBlockStart" -> blockStart(n, out);
            case "contentBlockDelta" -> delta(n, out);
            case "contentBlockStop" -> {
                Integer i = indices.get(n.path("contentBlockIndex").asInt());
                if (i != null && open.remove(i)) out.accept(new StreamEvent.BlockStop(i));
            }
            case "messageStop" -> {
                closeOpen(out);
                stopReason = ConverseStopReasons.of(n.path("stopReason").asText(null));
                stopSequence = n.path("additionalModelResponseFields").path("stop_sequence").asText(null);
            }
            case "metadata" -> finish(ConverseUsage.toCanonical(n.get("usage")), out);
            default -> { } // event types added later
        }
    }

    private void start(Consumer<StreamEvent> out) {
        if (started) return;
        started = true;
        // Converse names no message id and reports usage only at the end (metadata)
        out.accept(new StreamEvent.MessageStart(null, null, Usage.ZERO));
    }

    private void blockStart(JsonNode n, Consumer<StreamEvent> out) {
        start(out);
        int converseIndex = n.path("contentBlockIndex").asInt();
        JsonNode u = n.path("start").get("toolUse");
        // other starts (a server tool's result, a generated image) have no canonical block and are not relayed
        if (u == null) return;
        int i = open(converseIndex);
        out.accept(new StreamEvent.ToolUseStart(i, u.path("toolUseId").asText(), u.path("name").asText(), null));
    }

    private void delta(JsonNode n, Consumer<StreamEvent> out) {
        start(out);
        int converseIndex = n.path("contentBlockIndex").asInt();
        JsonNode d = n.path("delta");
        Integer known = indices.get(converseIndex);
        if (d.has("text")) {
            int i = known != null ? known : opened(converseIndex, out, k -> new StreamEvent.TextStart(k));
            out.accept(new StreamEvent.TextDelta(i, d.get("text").asText()));
        } else if (d.has("toolUse")) {
            if (known != null) out.accept(new StreamEvent.ToolArgumentsDelta(known, d.get("toolUse").path("input").asText("")));
        } else if (d.has("reasoningContent")) {
            reasoning(converseIndex, known, d.get("reasoningContent"), out);
        } else if (known != null && d.isObject()) {
            out.accept(new StreamEvent.VendorDelta(known, (ObjectNode) d));
        }
    }

    /**
     * Reasoning text, then its signature, on one block; redacted reasoning arrives whole in one delta. A thinking
     * block is started as vendor A's, the only signer of reasoning on Bedrock, so that encoders keep its text for
     * the signature that follows.
     */
    private void reasoning(int converseIndex, Integer known, JsonNode r, Consumer<StreamEvent> out) {
        if (r.has("redactedContent")) {
            if (known == null) opened(converseIndex, out, k -> new StreamEvent.RedactedThinkingStart(k, r.get("redactedContent").asText()));
            return;
        }
        int i = known != null ? known : opened(converseIndex, out, k -> new StreamEvent.ThinkingStart(k, SignatureOrigin.ANTHROPIC));
        if (r.has("text")) out.accept(new StreamEvent.ReasoningDelta(i, r.get("text").asText()));
        if (r.hasNonNull("signature")) out.accept(new StreamEvent.SignatureDelta(i, r.get("signature").asText(), SignatureOrigin.ANTHROPIC));
    }

    private int opened(int converseIndex, Consumer<StreamEvent> out, IntFunction<StreamEvent.BlockStart> start) {
        int i = open(converseIndex);
        out.accept(start.apply(i));
        return i;
    }

    private int open(int converseIndex) {
        int i = nextIndex++;
        indices.put(converseIndex, i);
        open.add(i);
        return i;
    }

    private void closeOpen(Consumer<StreamEvent> out) {
        for (Integer i : open) out.accept(new StreamEvent.BlockStop(i));
        open.clear();
    }

    private void finish(Usage usage, Consumer<StreamEvent> out) {
        if (finished) return;
        finished = true;
        closeOpen(out);
        out.accept(new StreamEvent.MessageDelta(stopReason != null ? stopReason : StopReason.END_TURN, stopSequence, usage));
        out.accept(new StreamEvent.MessageStop());
    }

    /** Upstream closed: a stream that reached messageStop but not its metadata still ends, without usage. */
    @Override
    public void end(Consumer<StreamEvent> out) {
        closeOpen(out);
        if (stopReason != null) finish(Usage.ZERO, out);
    }
}
