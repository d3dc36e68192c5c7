package dev.modelgateway.vendor.openai;

import dev.modelgateway.canonical.StopReason;

final class ChatFinishReasons {
    private ChatFinishReasons() { }

    /** finish_reason → canonical; "stop" with tool calls present means tool use (Gemini compat and others). */
    static StopReason of(String finish, boolean hadToolCalls, boolean refused) {
        if (refused) return StopReason.REFUSAL;
        if (finish == null) return hadToolCalls ? StopReason.TOOL_USE : StopReason.END_TURN;
        return switch (finish) {
            case "length" -> StopReason.MAX_TOKENS;
            case "tool_calls", "function_call" -> StopReason.TOOL_USE;
            case "content_filter" -> StopReason.REFUSAL;
            default -> hadToolCalls ? StopReason.TOOL_USE : StopReason.END_TURN;
        };
    }
}
