package dev.modelgateway.canonical;

public enum StopReason {
    END_TURN, MAX_TOKENS, STOP_SEQUENCE, TOOL_USE,
    /** the model or a safety system declined (Anthropic refusal, OpenAI content_filter/refusal, Gemini SAFETY…) */
    REFUSAL,
    /** Anthropic pause_turn: a server-tool loop paused; the client resends to continue */
    PAUSE,
    /** context window exhausted (Anthropic model_context_window_exceeded) */
    CONTEXT_WINDOW,
    /** the vendor reported a generation failure without an HTTP error (Gemini MALFORMED_FUNCTION_CALL…) */
    ERROR
}
