package dev.modelgateway.canonical;

import java.util.List;

/**
 * Where a request stands in a tool loop (platform.claude.com/docs/build-with-claude/thinking, "Thinking with tool
 * use"): the loop is one assistant turn, from after the last user message that is not a tool result to the tool
 * results the request ends with. The vendors' codecs read its opening message to decide whether thinking may be sent.
 */
public final class ToolLoop {
    private ToolLoop() {
    }

    /**
     * The first assistant message of the tool loop the request continues; null when the request does not end with
     * tool results, or the turn has no assistant message. System entries are not part of the turn.
     */
    public static Message openingMessage(List<Message> messages) {
        List<Message> turns = messages.stream().filter(m -> m.role() != Role.SYSTEM).toList();
        int last = turns.size() - 1;
        if (last < 0 || !answersTools(turns.get(last))) return null;
        int start = last;
        while (start > 0 && (turns.get(start - 1).role() != Role.USER || answersTools(turns.get(start - 1)))) start--;
        for (int i = start; i < last; i++) if (turns.get(i).role() == Role.ASSISTANT) return turns.get(i);
        return null;
    }

    private static boolean answersTools(Message m) {
        return m.role() == Role.USER && m.content().stream().anyMatch(b -> b instanceof ContentBlock.ToolResult);
    }
}
