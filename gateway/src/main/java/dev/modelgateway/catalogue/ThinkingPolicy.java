package dev.modelgateway.catalogue;

/**
 * How a model accepts extended thinking (docs/contract.md §2.3).
 *
 * @param budgetAllowed false when {@code {"type":"enabled","budget_tokens":N}} must be refused in favour of adaptive
 * @param defaultOn     true when the platform turns adaptive thinking on if the request does not mention thinking
 */
public record ThinkingPolicy(boolean budgetAllowed, boolean defaultOn) {
    public static final ThinkingPolicy VENDOR_DEFAULT = new ThinkingPolicy(true, false);
}
