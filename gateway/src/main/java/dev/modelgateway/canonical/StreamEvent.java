package dev.modelgateway.canonical;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Canonical streaming events, Anthropic-shaped because that is the richest vendor stream. Block indices are
 * per message and strictly increasing in start order. Blocks are not interleaved, except that argument
 * deltas of several open TOOL_USE blocks may interleave (OpenAI parallel calls); encoders that cannot
 * interleave buffer.
 */
public sealed interface StreamEvent {

    enum BlockKind { TEXT, THINKING, REDACTED_THINKING, TOOL_USE, VENDOR }

    /** @param usage what is known at the start (Anthropic: input and cache counters; others: zero) */
    record MessageStart(String id, String model, Usage usage) implements StreamEvent { }

    /**
     * @param toolId           TOOL_USE: call id
     * @param toolName         TOOL_USE: function name
     * @param thoughtSignature TOOL_USE: Gemini signature on the functionCall part
     * @param redactedData     REDACTED_THINKING: the opaque data (the block has no deltas)
     * @param origin           THINKING: who will sign it
     * @param vendorBlock      VENDOR: the block's start payload, verbatim
     */
    record BlockStart(int index, BlockKind kind, String toolId, String toolName, String thoughtSignature,
                      String redactedData, SignatureOrigin origin, ObjectNode vendorBlock) implements StreamEvent {
        public static BlockStart text(int index) {
            return new BlockStart(index, BlockKind.TEXT, null, null, null, null, null, null);
        }
        public static BlockStart thinking(int index, SignatureOrigin origin) {
            return new BlockStart(index, BlockKind.THINKING, null, null, null, null, origin, null);
        }
        public static BlockStart redacted(int index, String data) {
            return new BlockStart(index, BlockKind.REDACTED_THINKING, null, null, null, data, SignatureOrigin.ANTHROPIC, null);
        }
        public static BlockStart toolUse(int index, String id, String name, String thoughtSignature) {
            return new BlockStart(index, BlockKind.TOOL_USE, id, name, thoughtSignature, null, null, null);
        }
        public static BlockStart vendor(int index, ObjectNode raw) {
            return new BlockStart(index, BlockKind.VENDOR, null, null, null, null, null, raw);
        }
    }

    record TextDelta(int index, String text) implements StreamEvent { }

    record ReasoningDelta(int index, String text) implements StreamEvent { }

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
