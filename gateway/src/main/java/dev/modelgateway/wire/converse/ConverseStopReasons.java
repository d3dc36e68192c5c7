package dev.modelgateway.wire.converse;

import dev.modelgateway.canonical.StopReason;

/** Converse's {@code stopReason} (API reference, "Converse", Response Elements) → canonical. */
final class ConverseStopReasons {
    private ConverseStopReasons() {
    }

    static StopReason of(String reason) {
        if (reason == null) return StopReason.END_TURN;
        return switch (reason) {
            case "tool_use" -> StopReason.TOOL_USE;
            case "max_tokens" -> StopReason.MAX_TOKENS;
            case "stop_sequence" -> StopReason.STOP_SEQUENCE;
            // a guardrail or the model's content filter withheld the answer: the caller sees a refusal
            case "guardrail_intervened", "content_filtered" -> StopReason.REFUSAL;
            case "model_context_window_exceeded" -> StopReason.CONTEXT_WINDOW;
            case "malformed_model_output", "malformed_tool_use" -> StopReason.ERROR;
            default -> StopReason.END_TURN;
        };
    }
}
