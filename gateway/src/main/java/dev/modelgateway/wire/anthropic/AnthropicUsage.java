package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;

/**
 * Anthropic usage ⇄ canonical. Anthropic's {@code input_tokens} already excludes cache reads and writes, so the
 * counters map one to one; {@code cache_creation} splits writes by TTL.
 */
public final class AnthropicUsage {
    private AnthropicUsage() { }

    public static Usage toCanonical(JsonNode usage) {
        if (usage == null || !usage.isObject()) return Usage.ZERO;
        return merge(Usage.ZERO, usage);
    }

    /**
     * Applies the counters present in {@code usage} over {@code base}. Stream usage is cumulative: message_start
     * gives input and cache counts, message_delta the final output (and sometimes input again).
     */
    public static Usage merge(Usage base, JsonNode usage) {
        if (usage == null || !usage.isObject()) return base;
        long input = long_(usage, "input_tokens", base.inputTokens());
        long read = long_(usage, "cache_read_input_tokens", base.cacheReadTokens());
        long w5 = base.cacheWrite5mTokens();
        long w1 = base.cacheWrite1hTokens();
        if (usage.hasNonNull("cache_creation_input_tokens")) {
            long writes = usage.get("cache_creation_input_tokens").asLong();
            JsonNode split = usage.get("cache_creation");
            w1 = split != null && split.isObject() ? split.path("ephemeral_1h_input_tokens").asLong(0) : 0;
            w5 = Math.max(0, writes - w1);
        }
        long output = long_(usage, "output_tokens", base.outputTokens());
        long reasoning = usage.path("output_tokens_details").hasNonNull("thinking_tokens")
                ? usage.path("output_tokens_details").get("thinking_tokens").asLong() : base.reasoningTokens();
        // server tools are billed per call (usage.server_tool_use.web_search_requests, docs/accounts.md "Prices")
        long searches = usage.path("server_tool_use").hasNonNull("web_search_requests")
                ? usage.path("server_tool_use").get("web_search_requests").asLong() : base.webSearchCalls();
        return new Usage(input, read, w5, w1, output, reasoning, searches);
    }

    /** Canonical → Anthropic usage object (also used for message_delta, whose values are cumulative). */
    public static ObjectNode toAnthropic(Usage u) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("input_tokens", u.inputTokens());
        n.put("cache_creation_input_tokens", u.cacheWriteTokens());
        n.put("cache_read_input_tokens", u.cacheReadTokens());
        ObjectNode split = n.putObject("cache_creation");
        split.put("ephemeral_5m_input_tokens", u.cacheWrite5mTokens());
        split.put("ephemeral_1h_input_tokens", u.cacheWrite1hTokens());
        n.put("output_tokens", u.outputTokens());
        if (u.reasoningTokens() > 0) n.putObject("output_tokens_details").put("thinking_tokens", u.reasoningTokens());
        if (u.webSearchCalls() > 0) {
            n.putObject("server_tool_use").put("web_search_requests", u.webSearchCalls()).put("web_fetch_requests", 0);
        }
        return n;
    }

    private static long long_(JsonNode n, String field, long fallback) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? fallback : v.asLong();
    }
}
