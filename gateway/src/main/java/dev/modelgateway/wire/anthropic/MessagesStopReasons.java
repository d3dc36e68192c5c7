package dev.modelgateway.wire.anthropic;

import dev.modelgateway.canonical.StopReason;

final class MessagesStopReasons {
    private MessagesStopReasons() { }

    static String of(StopReason reason, boolean hadToolUse) {
        if (reason == null) return hadToolUse ? "tool_use" : "end_turn";
        return switch (reason) {
            case END_TURN, ERROR -> hadToolUse ? "tool_use" : "end_turn";
            case MAX_TOKENS -> "max_tokens";
            case STOP_SEQUENCE -> "stop_sequence";
            case TOOL_USE -> hadToolUse ? "tool_use" : "end_turn";
            case REFUSAL -> "refusal";
            case PAUSE -> "pause_turn";
            case CONTEXT_WINDOW -> "model_context_window_exceeded";
        };
    }
}
