package dev.modelgateway.canonical;

import java.util.List;

/**
 * A local estimate of a request's input tokens: the text of the system prompt, messages, tool calls,
 * tool results and tool definitions through {@link LocalTokenizer}, plus fixed overheads following
 * vendor B's published chat accounting (3 tokens per message, 3 to prime the reply) and a flat
 * {@link #MEDIA_TOKENS} per image, document or audio part (their real cost depends on pixels and pages).
 * Used by the token counting endpoint and for the input tokens of a translated messages stream's
 * {@code message_start} when the vendor reports usage only at the end.
 */
public final class CanonicalTokenCount {
    static final int PER_MESSAGE = 3;
    static final int REPLY_PRIMING = 3;
    static final int MEDIA_TOKENS = 765;

    private CanonicalTokenCount() {
    }

    public static long count(CanonicalRequest r) {
        long n = REPLY_PRIMING;
        if (!r.system().isEmpty()) {
            n += PER_MESSAGE;
            for (ContentBlock.Text t : r.system()) n += LocalTokenizer.count(t.text());
        }
        for (Message m : r.messages()) n += PER_MESSAGE + blocks(m.content());
        for (ToolDefinition t : r.tools()) {
            n += LocalTokenizer.count(t.name()) + LocalTokenizer.count(t.description())
                    + (t.schema() == null ? 0 : LocalTokenizer.count(t.schema().toString()));
        }
        return n;
    }

    private static long blocks(List<ContentBlock> blocks) {
        long n = 0;
        for (ContentBlock b : blocks) {
            n += switch (b) {
                case ContentBlock.Text t -> LocalTokenizer.count(t.text());
                case ContentBlock.Media m -> MEDIA_TOKENS;
                case ContentBlock.ToolUse u -> LocalTokenizer.count(u.name()) + LocalTokenizer.count(u.arguments());
                case ContentBlock.ToolResult tr -> blocks(tr.content());
                case ContentBlock.Thinking t -> LocalTokenizer.count(t.text());
                case ContentBlock.RedactedThinking rt -> 0;
                case ContentBlock.VendorBlock v -> LocalTokenizer.count(v.raw().toString());
            };
        }
        return n;
    }
}
