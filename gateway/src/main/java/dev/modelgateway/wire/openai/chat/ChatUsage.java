package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;

/**
 * Chat Completions usage (OpenAI and DashScope compatible mode) ⇄ canonical. {@code prompt_tokens} includes
 * cached reads and writes, so they are subtracted to get the uncached count; {@code completion_tokens}
 * includes reasoning.
 */
public final class ChatUsage {
    private ChatUsage() { }

    public static Usage toCanonical(JsonNode usage) {
        if (usage == null || !usage.isObject()) return Usage.ZERO;
        long prompt = usage.path("prompt_tokens").asLong(0);
        JsonNode pd = usage.path("prompt_tokens_details");
        long read = pd.path("cached_tokens").asLong(0);
        // OpenAI calls writes cache_write_tokens, DashScope cache_creation_input_tokens; both are 5-minute caches.
        long write = pd.hasNonNull("cache_write_tokens") ? pd.get("cache_write_tokens").asLong()
                : pd.path("cache_creation_input_tokens").asLong(0);
        long output = usage.path("completion_tokens").asLong(0);
        long reasoning = usage.path("completion_tokens_details").path("reasoning_tokens").asLong(0);
        return new Usage(Math.max(0, prompt - read - write), read, write, 0, output, reasoning);
    }

    /** Canonical → chat usage; prompt + completion == total by construction. */
    public static ObjectNode toChat(Usage u) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("prompt_tokens", u.totalInputTokens());
        n.put("completion_tokens", u.outputTokens());
        n.put("total_tokens", u.totalTokens());
        ObjectNode pd = n.putObject("prompt_tokens_details");
        pd.put("cached_tokens", u.cacheReadTokens());
        pd.put("cache_write_tokens", u.cacheWriteTokens());
        n.putObject("completion_tokens_details").put("reasoning_tokens", u.reasoningTokens());
        return n;
    }
}
