package dev.modelgateway.wire.openai.chat;

import dev.modelgateway.canonical.StopReason;

/** {@code finish_reason} both ways: the chat protocol has only five values, the canonical model more. */
final class ChatFinishReasons {
    private ChatFinishReasons() { }

    /** Canonical stop reason → the caller's finish_reason. */
    static String toChat(StopReason reason, boolean hadToolCalls) {
        if (hadToolCalls && (reason == null || reason == StopReason.END_TURN || reason == StopReason.TOOL_USE)) {
            return "tool_calls";
        }
        if (reason == null) return "stop";
        return switch (reason) {
            case END_TURN, STOP_SEQUENCE, ERROR -> "stop";
            // pause_turn has no chat value; "stop" ends the turn and the client may resend to continue.
            case PAUSE -> "stop";
            case MAX_TOKENS, CONTEXT_WINDOW -> "length";
            case TOOL_USE -> hadToolCalls ? "tool_calls" : "stop";
            case REFUSAL -> "content_filter";
        };
    }

    /** A vendor's finish_reason → canonical; "stop" with tool calls present means tool use (Gemini compat and others). */
    static StopReason toCanonical(String finish, boolean hadToolCalls, boolean refused) {
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
