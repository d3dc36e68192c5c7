package dev.modelgateway.canonical;

/**
 * The gateway's policy for converting between reasoning effort words and token budgets. Budgets follow
 * Gemini 2.5's documented OpenAI-compat values (low ≈1k, medium ≈8k, high ≈24k) rather than LiteLLM's smaller
 * ones, which starve Claude at "high".
 */
public final class ReasoningBudgets {
    /** Anthropic's minimum thinking budget. */
    public static final int ANTHROPIC_MIN_BUDGET = 1024;

    private ReasoningBudgets() { }

    /** Token budget for an effort word; null for "none" and unknown words. */
    public static Integer budgetFor(String effort) {
        if (effort == null) return null;
        return switch (effort) {
            case "minimal" -> 1024;
            case "low" -> 2048;
            case "medium" -> 8192;
            case "high" -> 24576;
            case "xhigh" -> 32768;
            case "max" -> 64000;
            default -> null;
        };
    }

    /** Effort word for a budget: the smallest level whose budget covers it. */
    public static String effortFor(int budget) {
        if (budget <= 2048) return "low";
        if (budget <= 8192) return "medium";
        return "high";
    }

    /** The budget a config implies: the explicit one, else the effort's, else a medium default. */
    public static int budgetOf(ReasoningConfig r) {
        if (r.budgetTokens() != null) return r.budgetTokens();
        Integer b = budgetFor(r.effort());
        return b != null ? b : 8192;
    }

    /** The effort a config implies: the explicit one, else derived from the budget, else null. */
    public static String effortOf(ReasoningConfig r) {
        if (r.effort() != null) return r.effort();
        if (r.budgetTokens() != null) return effortFor(r.budgetTokens());
        return null;
    }
}
