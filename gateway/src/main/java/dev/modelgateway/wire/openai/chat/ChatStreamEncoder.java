package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.SignatureEnvelope;
import dev.modelgateway.wire.SseFrames;
import dev.modelgateway.wire.StreamEncoder;
import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;

import java.util.HashMap;
import java.util.Map;

/**
 * Canonical events → chat.completion.chunk frames. Tool calls get their own per-message counter (canonical
 * block indices also count text and thinking blocks); the first chunk carries {@code role:"assistant"};
 * usage comes once, in a trailing {@code choices:[]} chunk, only if the client asked; {@code [DONE]} last.
 */
final class ChatStreamEncoder implements StreamEncoder {
    private final String model;
    private final long created;
    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BEFORE_DELTA = ",\"choices\":[{\"index\":0,\"delta\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONTENT = "{\"content\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REASONING_CONTENT = "{\"reasoning_content\":".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] AFTER_DELTA = ",\"finish_reason\":null}]}\n\n".getBytes(StandardCharsets.US_ASCII);

    private final boolean includeUsage;
    private String id = "chatcmpl-gateway";
    private byte[] head;
    private String headId;
    private boolean started;
    private boolean finished;
    private int toolCalls;
    private final Map<Integer, StreamEvent.BlockStart> starts = new HashMap<>();
    private final Map<Integer, Integer> toolIndex = new HashMap<>();
    /** The text of each open thinking block that a vendor signs (Anthropic, Gemini), sent whole with its signature. */
    private final Map<Integer, StringBuilder> thinking = new HashMap<>();
    private final Map<Integer, String> signatures = new HashMap<>();
    private final Map<Integer, SignatureOrigin> origins = new HashMap<>();

    ChatStreamEncoder(String publicModel, boolean includeUsage, long created) {
        this.model = publicModel;
        this.includeUsage = includeUsage;
        this.created = created;
    }

    @Override
    public void encode(StreamEvent event, Buffer out) {
        switch (event) {
            case StreamEvent.MessageStart s -> {
                if (s.id() != null) id = s.id();
                ensureStarted(out);
            }
            case StreamEvent.BlockStart s -> blockStart(s, out);
            case StreamEvent.TextDelta d -> {
                if (!d.text().isEmpty()) emitText(CONTENT, d.text(), out);
            }
            case StreamEvent.ReasoningDelta d -> {
                // kept only where a signature may follow, which then sends the whole block (never for NONE)
                if (starts.get(d.index()) instanceof StreamEvent.ThinkingStart t && t.origin() != SignatureOrigin.NONE) {
                    thinking.computeIfAbsent(d.index(), k -> new StringBuilder()).append(d.text());
                }
                if (!d.text().isEmpty()) emitText(REASONING_CONTENT, d.text(), out);
            }
            case StreamEvent.SignatureDelta d -> {
                if (starts.get(d.index()) instanceof StreamEvent.TextStart) signatures.put(d.index(), d.signature());
                else signatures.merge(d.index(), d.signature(), String::concat);
                origins.put(d.index(), d.origin());
            }
            case StreamEvent.ToolArgumentsDelta d -> {
                Integer k = toolIndex.get(d.index());
                if (k != null && !d.fragment().isEmpty()) {
                    ObjectNode delta = delta();
                    ObjectNode call = delta.putArray("tool_calls").addObject();
                    call.put("index", k);
                    call.putObject("function").put("arguments", d.fragment());
                    emit(delta, out);
                }
            }
            case StreamEvent.BlockStop s -> {
                // the block is over: what was kept for it goes
                StringBuilder thought = thinking.remove(s.index());
                String signature = signatures.remove(s.index());
                SignatureOrigin origin = origins.remove(s.index());
                if (signature == null) return;
                if (starts.get(s.index()) instanceof StreamEvent.TextStart) {
                    // A Gemini signature on the text: its own thinking block, the text itself stays whole.
                    ObjectNode delta = delta();
                    delta.putArray("thinking_blocks").addObject().put("type", "thinking").put("thinking", "")
                            .put("signature", SignatureEnvelope.sealText(signature));
                    emit(delta, out);
                } else if (starts.get(s.index()) instanceof StreamEvent.ThinkingStart) {
                    ObjectNode delta = delta();
                    delta.putArray("thinking_blocks").addObject().put("type", "thinking")
                            .put("thinking", thought == null ? "" : thought.toString())
                            .put("signature", SignatureEnvelope.seal(origin, signature));
                    emit(delta, out);
                }
            }
            case StreamEvent.MessageDelta d -> {
                ensureStarted(out);
                ObjectNode chunk = chunk();
                ObjectNode choice = chunk.putArray("choices").addObject();
                choice.put("index", 0);
                choice.putObject("delta");
                choice.put("finish_reason", ChatFinishReasons.toChat(d.stopReason(), toolCalls > 0));
                SseFrames.data(chunk, out);
                if (includeUsage) {
                    ObjectNode usage = chunk();
                    usage.putArray("choices");
                    usage.set("usage", ChatUsage.toChat(d.usage()));
                    SseFrames.data(usage, out);
                }
            }
            case StreamEvent.MessageStop ignored -> {
                if (!finished) {
                    finished = true;
                    SseFrames.done(out);
                }
            }
            case StreamEvent.VendorDelta ignored -> { }
            case StreamEvent.Ping ignored -> { }
        }
    }

    private void blockStart(StreamEvent.BlockStart s, Buffer out) {
        starts.put(s.index(), s);
        switch (s) {
            case StreamEvent.ToolUseStart t -> {
                int k = toolCalls++;
                toolIndex.put(t.index(), k);
                ObjectNode delta = delta();
                ObjectNode call = delta.putArray("tool_calls").addObject();
                call.put("index", k);
                call.put("id", t.id());
                call.put("type", "function");
                // Never the start block's (empty) input: arguments arrive only as fragments.
                call.putObject("function").put("name", t.name()).put("arguments", "");
                if (t.thoughtSignature() != null) {
                    call.putObject("extra_content").putObject("google").put("thought_signature", t.thoughtSignature());
                }
                emit(delta, out);
            }
            case StreamEvent.RedactedThinkingStart r -> {
                ObjectNode delta = delta();
                delta.putArray("thinking_blocks").addObject().put("type", "redacted_thinking").put("data", r.data());
                emit(delta, out);
            }
            case StreamEvent.ThinkingStart t -> origins.put(t.index(), t.origin());
            case StreamEvent.TextStart t -> {
                if (t.thoughtSignature() != null) signatures.put(t.index(), t.thoughtSignature());
            }
            case StreamEvent.VendorBlockStart _ -> { }
        }
    }

    @Override
    public void encodeError(GatewayException e, Buffer out) {
        SseFrames.data(ChatErrors.body(e), out);
    }

    private void ensureStarted(Buffer out) {
        if (started) return;
        started = true;
        ObjectNode delta = JsonNodeFactory.instance.objectNode();
        delta.put("role", "assistant");
        delta.put("content", "");
        frame(delta, out);
    }

    private void emit(ObjectNode delta, Buffer out) {
        ensureStarted(out);
        frame(delta, out);
    }

    /** A delta of one text field ({@code open} is the delta up to the field's value), written without a tree. */
    private void emitText(byte[] open, String text, Buffer out) {
        ensureStarted(out);
        out.appendBytes(head()).appendBytes(open);
        Json.appendString(text, out);
        out.appendByte((byte) '}').appendBytes(AFTER_DELTA);
    }

    /** {@code {"id":…,"object":…,"created":…,"model":…,"choices":[{"index":0,"delta":<delta>,"finish_reason":null}]}}. */
    private void frame(ObjectNode delta, Buffer out) {
        out.appendBytes(head());
        Json.append(delta, out);
        out.appendBytes(AFTER_DELTA);
    }

    /**
     * A delta chunk's frame up to its delta: the same for every delta of the stream, so serialised once (and
     * again only if the message id changes).
     */
    private byte[] head() {
        if (head == null || !id.equals(headId)) {
            Buffer envelope = Buffer.buffer(160).appendBytes(DATA);
            Json.append(chunk(), envelope);
            // the envelope without its closing brace, then the choice up to its delta
            head = envelope.getBuffer(0, envelope.length() - 1).appendBytes(BEFORE_DELTA).getBytes();
            headId = id;
        }
        return head;
    }

    private ObjectNode chunk() {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("id", id);
        c.put("object", "chat.completion.chunk");
        c.put("created", created);
        c.put("model", model);
        return c;
    }

    private static ObjectNode delta() {
        return JsonNodeFactory.instance.objectNode();
    }
}
