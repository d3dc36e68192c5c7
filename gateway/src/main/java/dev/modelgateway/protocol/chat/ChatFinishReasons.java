package dev.modelgateway.protocol.chat;

import dev.modelgateway.canonical.StopReason;

/** Canonical stop reason → chat finish_reason (the chat protocol has only five values). */
final class ChatFinishReasons {
    private ChatFinishReasons() { }

    static String of(StopReason reason, boolean hadToolCalls) {
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
}
