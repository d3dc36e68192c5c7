package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;

/**
 * Converse's {@code TokenUsage} → canonical. {@code inputTokens} counts only the input that was neither read from nor
 * written to the prompt cache; {@code cacheReadInputTokens} and {@code cacheWriteInputTokens} count those apart
 * (Bedrock user guide, "Prompt caching"), so the counters map one to one and billing sees reads and writes.
 * {@code cacheDetails} splits the writes by TTL ({@code 5m}, {@code 1h}).
 */
final class ConverseUsage {
    private ConverseUsage() {
    }

    static Usage toCanonical(JsonNode usage) {
        if (usage == null || !usage.isObject()) return Usage.ZERO;
        long writes = usage.path("cacheWriteInputTokens").asLong(0);
        long hour = 0;
        for (JsonNode d : usage.path("cacheDetails")) if ("1h".equals(d.path("ttl").asText())) hour += d.path("inputTokens").asLong(0);
        hour = Math.min(hour, writes);
        return new Usage(usage.path("inputTokens").asLong(0), usage.path("cacheReadInputTokens").asLong(0), writes - hour, hour,
                usage.path("outputTokens").asLong(0), 0);
    }
}
