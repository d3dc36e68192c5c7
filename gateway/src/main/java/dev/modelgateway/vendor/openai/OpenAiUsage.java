package dev.modelgateway.vendor.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;

/**
 * OpenAI-shaped usage (also DashScope compatible mode): {@code prompt_tokens} includes cached tokens
 * and {@code completion_tokens} includes reasoning tokens.
 */
public final class OpenAiUsage {
    private OpenAiUsage() {
    }

    public static Usage toCanonical(JsonNode u) {
        if (u == null || !u.isObject()) return Usage.ZERO;
        JsonNode details = u.path("prompt_tokens_details");
        long cached = details.path("cached_tokens").asLong(0);
        long written = details.path("cache_write_tokens").asLong(details.path("cache_creation_input_tokens").asLong(0));
        long prompt = u.path("prompt_tokens").asLong(0);
        return new Usage(Math.max(0, prompt - cached - written), cached, written, 0,
                u.path("completion_tokens").asLong(0),
                u.path("completion_tokens_details").path("reasoning_tokens").asLong(0));
    }
}
