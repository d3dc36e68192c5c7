package dev.modelgateway.wire.openai.chat;

/**
 * What differs between chat-completions-shaped upstreams (OpenAI itself, DashScope compatible mode).
 *
 * @param maxTokensField      OpenAI reasoning models only take max_completion_tokens; compat servers only max_tokens
 * @param replaysReasoning    send prior reasoning back as reasoning_content (Qwen preserve_thinking, DeepSeek)
 * @param qwenThinking        reasoning is controlled by enable_thinking/thinking_budget instead of reasoning_effort
 * @param topK                the upstream accepts top_k
 * @param cacheControl        content parts accept cache_control markers
 * @param fileIds             file_id references are meaningful (OpenAI Files)
 * @param partialPrefill      a trailing assistant message can be marked {@code partial:true} to be continued
 * @param maxStop             maximum number of stop sequences
 */
public record ChatDialect(String maxTokensField, boolean replaysReasoning, boolean qwenThinking, boolean topK,
                          boolean cacheControl, boolean fileIds, boolean partialPrefill, int maxStop) {

    public static final ChatDialect OPENAI = new ChatDialect("max_completion_tokens", false, false, false, false, true, false, 4);
    public static final ChatDialect QWEN = new ChatDialect("max_tokens", true, true, true, true, false, true, 4);
}
