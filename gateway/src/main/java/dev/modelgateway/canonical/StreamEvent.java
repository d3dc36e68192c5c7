package dev.modelgateway.canonical;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Canonical streaming events, Anthropic-shaped because that is the richest vendor stream. Block indices are
 * per message and strictly increasing in start order. Blocks are not interleaved, except that argument
 * deltas of several open tool-use blocks may interleave (OpenAI parallel calls); encoders that cannot
 * interleave buffer.
 */
public sealed interface StreamEvent {

    /** @param usage what is known at the start (Anthropic: input and cache counters; others: zero) */
    record MessageStart(String id, String model, Usage usage) implements StreamEvent { }

    /** Opens content block {@code index}; one record per kind of block, each carrying only its own fields. */
    sealed interface BlockStart extends StreamEvent {
        int index();
    }

    /**
     * A text block; its text arrives as {@link TextDelta}s. A Gemini signature on the text part arrives here
     * when the part opens the block, else as a {@link SignatureDelta} on the block once its text has begun.
     *
     * @param thoughtSignature Gemini signature on the text part that opens the block, or null
     */
    record TextStart(int index, String thoughtSignature) implements BlockStart {
        public TextStart(int index) { this(index, null); }
    }

    /**
     * A thinking block; its text arrives as {@link ReasoningDelta}s, its signature as {@link SignatureDelta}s.
     *
     * @param origin who will sign it
     */
    record ThinkingStart(int index, SignatureOrigin origin) implements BlockStart { }

    /** @param data the opaque Anthropic data (the block has no deltas) */
    record RedactedThinkingStart(int index, String data) implements BlockStart { }

    /**
     * A tool call; its JSON arguments arrive as {@link ToolArgumentsDelta} fragments.
     *
     * @param id               call id
     * @param name             function name
     * @param thoughtSignature Gemini signature on the functionCall part, or null
     */
    record ToolUseStart(int index, String id, String name, String thoughtSignature) implements BlockStart { }

    /**
     * A block with no canonical equivalent (Anthropic server tool blocks, Gemini executableCode parts…).
     *
     * @param block the block's start payload, verbatim
     */
    record VendorBlockStart(int index, ObjectNode block) implements BlockStart { }

    record TextDelta(int index, String text) implements StreamEvent { }

    record ReasoningDelta(int index, String text) implements StreamEvent { }

    /** The signature of a thinking block, or the Gemini signature of a text part of a text block. */
    record SignatureDelta(int index, String signature, SignatureOrigin origin) implements StreamEvent { }

    /** A fragment of a tool call's JSON arguments (or of a vendor block's input). */
    record ToolArgumentsDelta(int index, String fragment) implements StreamEvent { }

    /** A vendor-specific delta (Anthropic citations_delta…) kept verbatim. */
    record VendorDelta(int index, ObjectNode delta) implements StreamEvent { }

    record BlockStop(int index) implements StreamEvent { }

    /** The turn's outcome and the final cumulative usage; sent once, after the last BlockStop. */
    record MessageDelta(StopReason stopReason, String stopSequence, Usage usage) implements StreamEvent { }

    record MessageStop() implements StreamEvent { }

    record Ping() implements StreamEvent { }
}
