package dev.modelgateway.wire.anthropic;

import dev.modelgateway.canonical.StopReason;

final class AnthropicStopReasons {
    private AnthropicStopReasons() { }

    static StopReason of(String s) {
        if (s == null) return null;
        return switch (s) {
            case "max_tokens" -> StopReason.MAX_TOKENS;
            case "stop_sequence" -> StopReason.STOP_SEQUENCE;
            case "tool_use" -> StopReason.TOOL_USE;
            case "pause_turn" -> StopReason.PAUSE;
            case "refusal" -> StopReason.REFUSAL;
            case "model_context_window_exceeded" -> StopReason.CONTEXT_WINDOW;
            default -> StopReason.END_TURN;
        };
    }
}
