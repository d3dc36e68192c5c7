package dev.modelgateway.wire.converse;

import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolLoop;

import java.util.List;

/**
 * Vendor A's rule for thinking in a tool loop, met on Converse too: the loop is one assistant turn, beginning after
 * the last user message that is not a tool result, and with thinking on, its first assistant message must open with
 * reasoning (vendor A's 400 "Expected `thinking` or `redacted_thinking`, but found `tool_use`";
 * platform.claude.com/docs/build-with-claude/thinking, "Thinking with tool use"). When another model answered the
 * tool calls the loop continues (a switch of vendor mid-session), that turn has no reasoning vendor A signed, and the
 * encoder sends none of another's: thinking is then not sent for this request rather than the request refused.
 */
final class ToolLoopThinking {
    private ToolLoopThinking() {
    }

    /** Whether the request continues a tool loop whose turn does not open with reasoning this codec replays. */
    static boolean opensWithoutThinking(List<Message> messages) {
        Message opening = ToolLoop.openingMessage(messages);
        if (opening == null) return false;
        for (ContentBlock b : opening.content()) {
            switch (b) {
                case ContentBlock.Thinking t when t.origin() == SignatureOrigin.ANTHROPIC && t.signature() != null -> {
                    return false;
                }
                case ContentBlock.RedactedThinking _ -> {
                    return false;
                }
                // left out by the encoder: blank text, reasoning it does not replay, other vendors' blocks
                case ContentBlock.Text t when t.isBlank() -> { }
                case ContentBlock.Thinking _ -> { }
                case ContentBlock.VendorBlock v when !v.vendor().equals(ConverseCodec.VENDOR) -> { }
                default -> {
                    return true;
                }
            }
        }
        return true;
    }
}
