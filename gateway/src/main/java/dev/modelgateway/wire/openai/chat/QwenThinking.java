package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.ReasoningBudgets;
import dev.modelgateway.canonical.ReasoningConfig;

/**
 * The one mapping of a reasoning request onto vendor D's switches: DashScope's compatible mode documents
 * {@code enable_thinking} and {@code thinking_budget}, not {@code reasoning_effort}
 * (Alibaba Cloud Model Studio, "Deep thinking" and the OpenAI-compatible API reference), so an effort becomes the budget of
 * {@link ReasoningBudgets}. Used by the translating encoder and by the native chat path alike.
 */
final class QwenThinking {
    static final String WARNING = "reasoning: thinking disabled: DashScope does not support structured output while thinking";

    private QwenThinking() { }

    /**
     * Sets {@code enable_thinking} (and {@code thinking_budget} when a budget or effort was given) on {@code body};
     * returns the warning to report, or null.
     */
    static String apply(ReasoningConfig rc, boolean structuredOutput, ObjectNode body) {
        boolean on = rc.isOn() && !structuredOutput;
        body.put("enable_thinking", on);
        if (on && (rc.budgetTokens() != null || rc.effort() != null)) {
            body.put("thinking_budget", ReasoningBudgets.budgetOf(rc));
        }
        return rc.isOn() && structuredOutput ? WARNING : null;
    }
}
