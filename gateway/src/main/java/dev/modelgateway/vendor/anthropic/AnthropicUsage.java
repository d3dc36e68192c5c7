package dev.modelgateway.vendor.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;

/** Anthropic usage: {@code input_tokens} excludes cache reads and writes, which are reported apart. */
public final class AnthropicUsage {
    private AnthropicUsage() {
    }

    public static Usage toCanonical(JsonNode u) {
        if (u == null || !u.isObject()) return Usage.ZERO;
        long write = u.path("cache_creation_input_tokens").asLong(0);
        JsonNode split = u.path("cache_creation");
        long w1h = split.path("ephemeral_1h_input_tokens").asLong(0);
        long w5m = split.has("ephemeral_5m_input_tokens") ? split.path("ephemeral_5m_input_tokens").asLong(0) : write - w1h;
        long reasoning = u.path("output_tokens_details").path("thinking_tokens").asLong(0);
        return new Usage(u.path("input_tokens").asLong(0), u.path("cache_read_input_tokens").asLong(0),
                Math.max(0, w5m), w1h, u.path("output_tokens").asLong(0), reasoning);
    }
}
