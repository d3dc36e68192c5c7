package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Vendor A's rule for a request with thinking on that continues a tool loop (the last user message carries
 * {@code tool_result} blocks): the assistant turn being continued must open with a {@code thinking} or
 * {@code redacted_thinking} block. A tool loop is one assistant turn, which begins after the last user message
 * that is not a tool result; Claude thinks at its start and need not think again after tool results, so only the
 * turn's first assistant message is checked (platform.claude.com/docs/build-with-claude/thinking, "Thinking with
 * tool use"). The refusal's wording is vendor A's own, typo included.
 */
final class ThinkingTurn {
    private ThinkingTurn() { }

    /** Vendor A's 400 message when {@code messages} breaks the rule, else null. */
    static String refusal(JsonNode messages) {
        int last = messages.size() - 1;
        if (last < 0 || !isToolResults(messages.get(last))) return null;
        int start = last;
        while (start > 0 && !isPrompt(messages.get(start - 1))) start--;
        for (int i = start; i < last; i++) {
            JsonNode m = messages.get(i);
            if (!"assistant".equals(Json.text(m, "role"))) continue;
            JsonNode content = m.get("content");
            String first = content == null ? "nothing" : content.isTextual() ? "text"
                    : String.valueOf(Json.text(content.path(0), "type"));
            if (first.equals("thinking") || first.equals("redacted_thinking")) return null;
            return "messages." + i + ".content.0.type: Expected `thinking` or `redacted_thinking`, but found `" + first
                    + "`. When `thinking` is enabled, a final `assistant` message must start with a thinking block "
                    + "(preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include "
                    + "thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult "
                    + "our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking";
        }
        return null;
    }

    private static boolean isToolResults(JsonNode m) {
        if (!"user".equals(Json.text(m, "role"))) return false;
        for (JsonNode b : m.path("content")) if ("tool_result".equals(Json.text(b, "type"))) return true;
        return false;
    }

    /** A user message that starts a new assistant turn: one that is not a tool result. */
    private static boolean isPrompt(JsonNode m) {
        return "user".equals(Json.text(m, "role")) && !isToolResults(m);
    }
}
