package dev.modelgateway.canonical;

/**
 * What the caller asked for, kept in its own terms: an explicit token budget (Anthropic enabled,
 * Qwen thinking_budget) and/or an effort word (OpenAI reasoning_effort, Anthropic output_config.effort).
 * Vendor codecs convert with {@link ReasoningBudgets}.
 */
public record ReasoningConfig(Mode mode, Integer budgetTokens, String effort) {
    public enum Mode { ENABLED, ADAPTIVE, DISABLED }

    public static final ReasoningConfig DISABLED = new ReasoningConfig(Mode.DISABLED, null, null);

    public boolean isOn() { return mode != Mode.DISABLED; }
}
