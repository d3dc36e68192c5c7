package dev.modelgateway.wire.gemini;

import dev.modelgateway.canonical.StopReason;

final class GeminiFinishReasons {
    private GeminiFinishReasons() { }

    /** Gemini says STOP even when it returned function calls: tool use is derived from the parts. */
    static StopReason of(String reason, boolean hadCalls) {
        if (reason == null || reason.equals("STOP") || reason.equals("FINISH_REASON_UNSPECIFIED")) {
            return hadCalls ? StopReason.TOOL_USE : StopReason.END_TURN;
        }
        return switch (reason) {
            case "MAX_TOKENS" -> StopReason.MAX_TOKENS;
            case "SAFETY", "RECITATION", "LANGUAGE", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY",
                 "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION", "MODEL_ARMOR", "JAILBREAK" -> StopReason.REFUSAL;
            // MALFORMED_FUNCTION_CALL, UNEXPECTED_TOOL_CALL, TOO_MANY_TOOL_CALLS, OTHER, NO_IMAGE…
            default -> StopReason.ERROR;
        };
    }
}
