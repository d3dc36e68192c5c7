package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalTokenCount;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.SignatureEnvelope;
import dev.modelgateway.wire.SseFrames;
import dev.modelgateway.wire.StreamEncoder;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Canonical events → Anthropic SSE. Anthropic blocks are strictly sequential, so a block started while
 * another is open (parallel OpenAI tool calls whose fragments interleave) waits, with its deltas, until the
 * open one stops. Text blocks open lazily so that no empty text block is ever emitted, and Anthropic indices
 * are renumbered because such skipped blocks and Gemini signature carriers change the count.
 * A Gemini signature on a text part never splits the text or trails it (vendor A never ends a message with
 * thinking after text, and Claude Code shows only the last block): known before the text starts, it goes
 * in a {@code gemini-text:} carrier before the text; arriving once the text has begun, it is held and goes
 * in a {@code gemini:} carrier after the text only if another block follows; at the end of the message it is
 * dropped (Gemini does not validate signatures on text parts, ai.google.dev/gemini-api/docs/thought-signatures).
 */
final class MessagesStreamEncoder implements StreamEncoder {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final byte[] DELTA_HEAD = "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":"
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DELTA_FIELD = ",\"delta\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DELTA_END = "}\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TEXT_DELTA = "{\"type\":\"text_delta\",\"text\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] THINKING_DELTA = "{\"type\":\"thinking_delta\",\"thinking\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SIGNATURE_DELTA = "{\"type\":\"signature_delta\",\"signature\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] INPUT_JSON_DELTA = "{\"type\":\"input_json_delta\",\"partial_json\":".getBytes(StandardCharsets.US_ASCII);

    private final String model;
    private final CanonicalRequest request;
    private boolean started;
    private boolean stopped;
    private int nextIndex;
    private boolean hadToolUse;
    /** The Gemini signature of a text block that had already begun when it arrived. */
    private String heldTextSignature;
    private Active active;
    private final Map<Integer, Pending> waiting = new LinkedHashMap<>();

    /** The canonical block whose Anthropic block is open (or about to open, for lazy text). */
    private static final class Active {
        final StreamEvent.BlockStart start;
        int anthropicIndex = -1;
        boolean skipped;
        boolean sentInput;
        boolean sentSignature;
        Active(StreamEvent.BlockStart start) { this.start = start; }
    }

    private record Pending(StreamEvent.BlockStart start, List<StreamEvent> deltas, boolean[] stopped) { }

    /** @param request the translated request, counted locally when the vendor reports no input tokens up front */
    MessagesStreamEncoder(String publicModel, CanonicalRequest request) {
        this.model = publicModel;
        this.request = request;
    }

    @Override
    public void encode(StreamEvent event, Buffer out) {
        switch (event) {
            case StreamEvent.MessageStart s -> start(s.id(), s.usage(), out);
            case StreamEvent.BlockStart s -> {
                ensureStarted(out);
                if (active == null) open(s, out);
                else waiting.put(s.index(), new Pending(s, new ArrayList<>(), new boolean[1]));
            }
            case StreamEvent.BlockStop s -> {
                if (active != null && active.start.index() == s.index()) {
                    close(out);
                    drain(out);
                } else if (waiting.containsKey(s.index())) {
                    waiting.get(s.index()).stopped()[0] = true;
                }
            }
            case StreamEvent.MessageDelta d -> {
                ensureStarted(out);
                closeEverything(out);
                ObjectNode md = F.objectNode().put("type", "message_delta");
                ObjectNode delta = md.putObject("delta");
                delta.put("stop_reason", MessagesStopReasons.of(d.stopReason(), hadToolUse));
                delta.put("stop_sequence", d.stopSequence());
                md.set("usage", AnthropicUsage.toAnthropic(d.usage()));
                SseFrames.named("message_delta", md, out);
            }
            case StreamEvent.MessageStop ignored -> {
                if (!stopped) {
                    stopped = true;
                    SseFrames.named("message_stop", F.objectNode().put("type", "message_stop"), out);
                }
            }
            case StreamEvent.Ping ignored -> {
                if (started) SseFrames.named("ping", F.objectNode().put("type", "ping"), out);
            }
            default -> delta(event, out);
        }
    }

    private void delta(StreamEvent e, Buffer out) {
        int index = switch (e) {
            case StreamEvent.TextDelta d -> d.index();
            case StreamEvent.ReasoningDelta d -> d.index();
            case StreamEvent.SignatureDelta d -> d.index();
            case StreamEvent.ToolArgumentsDelta d -> d.index();
            case StreamEvent.VendorDelta d -> d.index();
            default -> -1;
        };
        if (active != null && active.start.index() == index) emitDelta(e, out);
        else if (waiting.containsKey(index)) waiting.get(index).deltas().add(e);
    }

    private void emitDelta(StreamEvent e, Buffer out) {
        byte[] open; // the delta up to its text value; null for a vendor delta, written whole
        String value = null;
        ObjectNode vendorDelta = null;
        switch (e) {
            case StreamEvent.TextDelta d -> {
                if (d.text().isEmpty()) return;
                open = TEXT_DELTA;
                value = d.text();
            }
            case StreamEvent.ReasoningDelta d -> {
                if (d.text().isEmpty()) return;
                open = THINKING_DELTA;
                value = d.text();
            }
            case StreamEvent.SignatureDelta d when active.start instanceof StreamEvent.TextStart -> {
                if (active.anthropicIndex >= 0) heldTextSignature = d.signature();
                else emitCarrier(SignatureEnvelope.sealText(d.signature()), out);
                return;
            }
            case StreamEvent.SignatureDelta d -> {
                value = SignatureEnvelope.seal(d.origin(), d.signature());
                if (value.isEmpty()) return;
                open = SIGNATURE_DELTA;
                active.sentSignature = true;
            }
            case StreamEvent.ToolArgumentsDelta d -> {
                if (d.fragment().isEmpty()) return;
                open = INPUT_JSON_DELTA;
                value = d.fragment();
                active.sentInput = true;
            }
            case StreamEvent.VendorDelta d -> {
                open = null;
                vendorDelta = d.delta();
            }
            default -> {
                return;
            }
        }
        if (active.skipped) return;
        ensureOpened(out);
        // {"type":"content_block_delta","index":N,"delta":{…}}, the delta written without a tree
        out.appendBytes(DELTA_HEAD).appendString(Integer.toString(active.anthropicIndex)).appendBytes(DELTA_FIELD);
        if (vendorDelta != null) {
            Json.append(vendorDelta, out);
        } else {
            out.appendBytes(open);
            Json.appendString(value, out);
            out.appendByte((byte) '}');
        }
        out.appendBytes(DELTA_END);
    }

    private void open(StreamEvent.BlockStart s, Buffer out) {
        active = new Active(s);
        if (s instanceof StreamEvent.VendorBlockStart v && !MessagesBlocks.isReplayableVendorBlock(
                new ContentBlock.VendorBlock("anthropic", v.block()))) {
            active.skipped = true;
            return;
        }
        if (s instanceof StreamEvent.TextStart t) {
            if (t.thoughtSignature() != null) emitCarrier(SignatureEnvelope.sealText(t.thoughtSignature()), out);
        } else {
            ensureOpened(out);
        }
    }

    /** Emits the content_block_start of the active block if not yet done. */
    private void ensureOpened(Buffer out) {
        if (active.anthropicIndex >= 0) return;
        flushHeldTextSignature(out);
        ObjectNode block = switch (active.start) {
            case StreamEvent.TextStart _ -> F.objectNode().put("type", "text").put("text", "");
            case StreamEvent.ThinkingStart _ ->
                    F.objectNode().put("type", "thinking").put("thinking", "").put("signature", "");
            case StreamEvent.RedactedThinkingStart r ->
                    F.objectNode().put("type", "redacted_thinking").put("data", r.data());
            case StreamEvent.ToolUseStart t -> {
                hadToolUse = true;
                if (t.thoughtSignature() != null) emitCarrier(SignatureEnvelope.sealCall(t.thoughtSignature()), out);
                ObjectNode o = F.objectNode().put("type", "tool_use").put("id", t.id()).put("name", t.name());
                o.putObject("input");
                yield o;
            }
            case StreamEvent.VendorBlockStart v -> v.block().deepCopy();
        };
        active.anthropicIndex = nextIndex++;
        ObjectNode frame = F.objectNode().put("type", "content_block_start").put("index", active.anthropicIndex);
        frame.set("content_block", block);
        SseFrames.named("content_block_start", frame, out);
    }

    /** Another block follows a text whose signature was held: the signature goes right after that text. */
    private void flushHeldTextSignature(Buffer out) {
        if (heldTextSignature == null) return;
        String signature = heldTextSignature;
        heldTextSignature = null;
        emitCarrier(SignatureEnvelope.seal(SignatureOrigin.GEMINI, signature), out);
    }

    /** A complete, otherwise empty thinking block carrying a sealed Gemini signature. */
    private void emitCarrier(String sealed, Buffer out) {
        flushHeldTextSignature(out);
        int idx = nextIndex++;
        ObjectNode start = F.objectNode().put("type", "content_block_start").put("index", idx);
        start.putObject("content_block").put("type", "thinking").put("thinking", "").put("signature", "");
        SseFrames.named("content_block_start", start, out);
        ObjectNode d = F.objectNode().put("type", "content_block_delta").put("index", idx);
        d.putObject("delta").put("type", "signature_delta").put("signature", sealed);
        SseFrames.named("content_block_delta", d, out);
        SseFrames.named("content_block_stop", F.objectNode().put("type", "content_block_stop").put("index", idx), out);
    }

    private void close(Buffer out) {
        if (active.start instanceof StreamEvent.ThinkingStart t && t.origin() == SignatureOrigin.GEMINI && !active.sentSignature) {
            // An unsigned Gemini thought summary is marked as Gemini's, as in the JSON answer (SignatureEnvelope).
            emitDelta(new StreamEvent.SignatureDelta(t.index(), null, SignatureOrigin.GEMINI), out);
        }
        if (active.start instanceof StreamEvent.ToolUseStart && !active.sentInput && active.anthropicIndex >= 0) {
            // A no-argument call: clients accumulate input only from deltas, so send the empty object once.
            ObjectNode frame = F.objectNode().put("type", "content_block_delta").put("index", active.anthropicIndex);
            frame.putObject("delta").put("type", "input_json_delta").put("partial_json", "{}");
            SseFrames.named("content_block_delta", frame, out);
        }
        if (active.anthropicIndex >= 0) {
            SseFrames.named("content_block_stop",
                    F.objectNode().put("type", "content_block_stop").put("index", active.anthropicIndex), out);
        }
        active = null;
    }

    /** Opens waiting blocks in start order, replaying their deltas, until one is still streaming. */
    private void drain(Buffer out) {
        while (active == null && !waiting.isEmpty()) {
            Integer first = waiting.keySet().iterator().next();
            Pending p = waiting.remove(first);
            open(p.start(), out);
            for (StreamEvent d : p.deltas()) emitDelta(d, out);
            if (p.stopped()[0]) close(out);
        }
    }

    private void closeEverything(Buffer out) {
        if (active != null) close(out);
        drain(out);
        if (active != null) close(out);
        while (!waiting.isEmpty()) {
            drain(out);
            if (active != null) close(out);
        }
    }

    private void start(String id, Usage usage, Buffer out) {
        if (started) return;
        started = true;
        ObjectNode ms = F.objectNode().put("type", "message_start");
        ObjectNode m = ms.putObject("message");
        m.put("id", MessagesResponseEncoder.messageId(id));
        m.put("type", "message");
        m.put("role", "assistant");
        m.put("model", model);
        m.putArray("content");
        m.putNull("stop_reason");
        m.putNull("stop_sequence");
        m.set("usage", AnthropicUsage.toAnthropic(withInput(usage == null ? Usage.ZERO : usage)));
        SseFrames.named("message_start", ms, out);
    }

    /**
     * Vendor A reports the input tokens in {@code message_start}, and some clients (LangChain) read them only
     * there. Vendors that report usage only at the end (chat-completions streams) get the local estimate of the
     * token counting endpoint; {@code message_delta} then carries the vendor's real count.
     */
    private Usage withInput(Usage usage) {
        if (usage.totalInputTokens() > 0 || request == null) return usage;
        return new Usage(CanonicalTokenCount.count(request), 0, 0, 0, usage.outputTokens(), usage.reasoningTokens());
    }

    private void ensureStarted(Buffer out) {
        start(null, Usage.ZERO, out);
    }

    @Override
    public void encodeError(GatewayException e, Buffer out) {
        SseFrames.named("error", MessagesErrors.body(e), out);
    }
}
