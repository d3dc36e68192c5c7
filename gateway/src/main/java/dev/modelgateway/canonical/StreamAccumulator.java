package dev.modelgateway.canonical;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Folds canonical stream events into a {@link CanonicalResponse}: for stream-only upstreams (some Qwen
 * models) serving a non-streaming client, and for logging a streamed turn. Not thread-safe.
 */
public final class StreamAccumulator {
    private String id;
    private String model;
    private StopReason stopReason;
    private String stopSequence;
    private Usage usage = Usage.ZERO;
    private final Map<Integer, Partial> blocks = new TreeMap<>();

    private static final class Partial {
        final StreamEvent.BlockStart start;
        final StringBuilder text = new StringBuilder();
        final StringBuilder signature = new StringBuilder();
        SignatureOrigin origin;
        Partial(StreamEvent.BlockStart start) {
            this.start = start;
            this.origin = start instanceof StreamEvent.ThinkingStart t ? t.origin() : null;
        }
    }

    public void accept(StreamEvent event) {
        switch (event) {
            case StreamEvent.MessageStart s -> {
                id = s.id();
                model = s.model();
                if (s.usage() != null) usage = s.usage();
            }
            case StreamEvent.BlockStart s -> blocks.put(s.index(), new Partial(s));
            case StreamEvent.TextDelta d -> append(d.index(), d.text());
            case StreamEvent.ReasoningDelta d -> append(d.index(), d.text());
            case StreamEvent.ToolArgumentsDelta d -> append(d.index(), d.fragment());
            case StreamEvent.SignatureDelta d -> {
                Partial p = blocks.get(d.index());
                if (p != null) {
                    p.signature.append(d.signature());
                    p.origin = d.origin();
                }
            }
            case StreamEvent.MessageDelta d -> {
                stopReason = d.stopReason();
                stopSequence = d.stopSequence();
                if (d.usage() != null) usage = d.usage();
            }
            case StreamEvent.VendorDelta ignored -> { }
            case StreamEvent.BlockStop ignored -> { }
            case StreamEvent.MessageStop ignored -> { }
            case StreamEvent.Ping ignored -> { }
        }
    }

    private void append(int index, String s) {
        Partial p = blocks.get(index);
        if (p != null) p.text.append(s);
    }

    public CanonicalResponse response() {
        List<ContentBlock> content = new ArrayList<>();
        for (Partial p : blocks.values()) {
            switch (p.start) {
                case StreamEvent.TextStart t -> {
                    if (!p.text.isEmpty()) content.add(new ContentBlock.Text(p.text.toString()));
                    // A Gemini text-part signature: an empty signed thinking block right after the text.
                    String sig = t.thoughtSignature() != null ? t.thoughtSignature() : p.signature.isEmpty() ? null : p.signature.toString();
                    if (sig != null) content.add(new ContentBlock.Thinking("", sig, SignatureOrigin.GEMINI));
                }
                case StreamEvent.ThinkingStart _ -> content.add(new ContentBlock.Thinking(p.text.toString(),
                        p.signature.isEmpty() ? null : p.signature.toString(), p.origin == null ? SignatureOrigin.NONE : p.origin));
                case StreamEvent.RedactedThinkingStart r -> content.add(new ContentBlock.RedactedThinking(r.data()));
                case StreamEvent.ToolUseStart t ->
                        content.add(new ContentBlock.ToolUse(t.id(), t.name(), p.text.toString(), t.thoughtSignature(), null));
                case StreamEvent.VendorBlockStart v -> content.add(new ContentBlock.VendorBlock(vendorOf(v), v.block()));
            }
        }
        return new CanonicalResponse(id, model, content, stopReason, stopSequence, usage);
    }

    /** Anthropic blocks always carry a {@code type}; Gemini parts (executableCode…) never do. */
    private static String vendorOf(StreamEvent.VendorBlockStart s) {
        return s.block() != null && s.block().has("type") ? "anthropic" : "gemini";
    }
}
