package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;

/**
 * Responses API usage ⇄ canonical. Like chat, {@code input_tokens} includes cached tokens and
 * {@code output_tokens} includes reasoning; only the field names differ.
 */
public final class ResponsesUsage {
    private ResponsesUsage() { }

    public static Usage toCanonical(JsonNode usage) {
        if (usage == null || !usage.isObject()) return Usage.ZERO;
        long input = usage.path("input_tokens").asLong(0);
        JsonNode details = usage.path("input_tokens_details");
        long read = details.path("cached_tokens").asLong(0);
        long write = details.path("cache_write_tokens").asLong(0);
        long output = usage.path("output_tokens").asLong(0);
        long reasoning = usage.path("output_tokens_details").path("reasoning_tokens").asLong(0);
        return new Usage(Math.max(0, input - read - write), read, write, 0, output, reasoning);
    }

    /**
     * A whole response's usage: its {@code usage} and its web searches, which vendor B bills per call, one
     * {@code web_search_call} output item each (docs/accounts.md, "Prices").
     */
    public static Usage ofResponse(JsonNode response) {
        Usage u = toCanonical(response.get("usage"));
        long searches = 0;
        for (JsonNode item : response.path("output")) {
            if ("web_search_call".equals(item.path("type").asText())) searches++;
        }
        return searches == 0 ? u : new Usage(u.inputTokens(), u.cacheReadTokens(), u.cacheWrite5mTokens(),
                u.cacheWrite1hTokens(), u.outputTokens(), u.reasoningTokens(), searches);
    }

    public static ObjectNode toResponses(Usage u) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("input_tokens", u.totalInputTokens());
        n.putObject("input_tokens_details").put("cached_tokens", u.cacheReadTokens());
        n.put("output_tokens", u.outputTokens());
        n.putObject("output_tokens_details").put("reasoning_tokens", u.reasoningTokens());
        n.put("total_tokens", u.totalTokens());
        return n;
    }
}
