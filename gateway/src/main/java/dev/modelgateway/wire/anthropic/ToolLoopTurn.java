package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolLoop;
import dev.modelgateway.wire.SignatureEnvelope;

import java.util.List;

/**
 * The assistant turn a request continues when its last user message answers tool calls. A tool loop is one
 * assistant turn: it begins after the last user message that is not a tool result, and Claude thinks at its start,
 * not necessarily after each tool result (platform.claude.com/docs/build-with-claude/thinking, "Thinking with tool
 * use"). With thinking on, vendor A requires that turn's first assistant message to open with a {@code thinking} or
 * {@code redacted_thinking} block (400 "Expected `thinking` or `redacted_thinking`, but found `tool_use`").
 *
 * <p>The same question is asked of a messages body (native path, after {@link ForeignThinking}) and of a canonical
 * request (translated path, before {@link AnthropicRequestEncoder}, which sends only vendor A's own thinking).
 */
final class ToolLoopTurn {
    private ToolLoopTurn() { }

    /** Whether the messages body continues a tool loop whose turn does not open with vendor A's thinking. */
    static boolean opensWithoutThinking(JsonNode messages) {
        int last = messages.size() - 1;
        if (last < 0 || !answersTools(messages.get(last))) return false;
        int start = last;
        while (start > 0 && (!"user".equals(messages.get(start - 1).path("role").asText()) || answersTools(messages.get(start - 1)))) {
            start--;
        }
        for (int i = start; i < last; i++) {
            JsonNode m = messages.get(i);
            if (!"assistant".equals(m.path("role").asText())) continue;
            JsonNode first = m.path("content").path(0);
            return switch (first.path("type").asText()) {
                case "thinking" -> !SignatureEnvelope.isVendorA(first.path("signature").asText(""));
                case "redacted_thinking" -> false;
                default -> true;
            };
        }
        return false;
    }

    /** The same for a canonical request, reading each block as the encoder will send it or leave it out. */
    static boolean opensWithoutThinking(List<Message> messages) {
        Message opening = ToolLoop.openingMessage(messages);
        if (opening == null) return false;
        for (ContentBlock b : opening.content()) {
            switch (b) {
                case ContentBlock.Thinking t when t.origin() == SignatureOrigin.ANTHROPIC && t.signature() != null -> {
                    return false;
                }
                case ContentBlock.RedactedThinking r -> {
                    return false;
                }
                case ContentBlock.VendorBlock v when v.vendor().equals("anthropic") -> {
                    String type = v.raw().path("type").asText();
                    return !type.equals("thinking") && !type.equals("redacted_thinking");
                }
                // Not sent to vendor A: blank text, another vendor's reasoning, another vendor's blocks.
                case ContentBlock.Text t when t.isBlank() -> { }
                case ContentBlock.Thinking t -> { }
                case ContentBlock.VendorBlock v -> { }
                default -> {
                    return true;
                }
            }
        }
        return true;
    }

    private static boolean answersTools(JsonNode m) {
        if (!"user".equals(m.path("role").asText())) return false;
        for (JsonNode b : m.path("content")) if ("tool_result".equals(b.path("type").asText())) return true;
        return false;
    }
}
