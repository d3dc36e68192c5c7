package dev.modelgateway.sim;

import java.util.List;

/**
 * The vendor-neutral answer the simulator will give: optional thinking, the text (already cut to
 * max tokens and split into stream pieces) or tool calls, and the reason it stopped.
 */
record Answer(String thinking, String text, List<String> pieces, List<ToolCall> calls, Stop stop,
              int thinkingTokens, int contentTokens) {

    enum Stop { END, MAX_TOKENS, TOOL }

    /** {@code arguments} is the JSON text of the call's input. {@code id} is null for Gemini. */
    record ToolCall(String id, String name, String arguments) {
    }

    int outputTokens() {
        return thinkingTokens + contentTokens;
    }

    boolean hasThinking() {
        return thinking != null;
    }

    List<String> thinkingPieces() {
        return thinking == null ? List.of() : AnswerPlanner.words(thinking);
    }
}
