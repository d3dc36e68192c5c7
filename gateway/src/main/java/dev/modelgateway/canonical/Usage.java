package dev.modelgateway.canonical;

/**
 * Token usage with every counter separate, so that no vendor's convention leaks into billing.
 * Anthropic reports uncached input apart from cache reads/writes; OpenAI's prompt_tokens includes
 * cached tokens. Codecs convert both to this shape and back, never double counting.
 *
 * @param inputTokens      input tokens that were neither read from nor written to a cache
 * @param cacheReadTokens  input tokens served from a prompt cache
 * @param cacheWrite5mTokens input tokens written to a 5-minute cache
 * @param cacheWrite1hTokens input tokens written to a 1-hour cache
 * @param outputTokens     all generated tokens, reasoning included
 * @param reasoningTokens  the part of {@code outputTokens} spent on reasoning
 * @param webSearchCalls   server-side web searches the vendor ran (and bills per call)
 */
public record Usage(long inputTokens, long cacheReadTokens, long cacheWrite5mTokens, long cacheWrite1hTokens,
                    long outputTokens, long reasoningTokens, long webSearchCalls) {

    public static final Usage ZERO = new Usage(0, 0, 0, 0, 0, 0);

    /** Token counts without server-tool calls. */
    public Usage(long inputTokens, long cacheReadTokens, long cacheWrite5mTokens, long cacheWrite1hTokens,
                 long outputTokens, long reasoningTokens) {
        this(inputTokens, cacheReadTokens, cacheWrite5mTokens, cacheWrite1hTokens, outputTokens, reasoningTokens, 0);
    }

    public long cacheWriteTokens() {
        return cacheWrite5mTokens + cacheWrite1hTokens;
    }

    /** Every input token, as OpenAI's {@code prompt_tokens} counts them. */
    public long totalInputTokens() {
        return inputTokens + cacheReadTokens + cacheWriteTokens();
    }

    public long totalTokens() {
        return totalInputTokens() + outputTokens;
    }

    public Usage plus(Usage o) {
        return new Usage(inputTokens + o.inputTokens, cacheReadTokens + o.cacheReadTokens,
                cacheWrite5mTokens + o.cacheWrite5mTokens, cacheWrite1hTokens + o.cacheWrite1hTokens,
                outputTokens + o.outputTokens, reasoningTokens + o.reasoningTokens, webSearchCalls + o.webSearchCalls);
    }
}
