package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;

/**
 * Gemini usageMetadata → canonical. promptTokenCount includes cached content; candidatesTokenCount excludes
 * thoughts, which are output too (a widely reported under-count when forgotten).
 */
public final class GeminiUsage {
    private GeminiUsage() { }

    public static Usage toCanonical(JsonNode meta) {
        if (meta == null || !meta.isObject()) return Usage.ZERO;
        long prompt = meta.path("promptTokenCount").asLong(0) + meta.path("toolUsePromptTokenCount").asLong(0);
        long cached = meta.path("cachedContentTokenCount").asLong(0);
        long thoughts = meta.path("thoughtsTokenCount").asLong(0);
        long candidates = meta.path("candidatesTokenCount").asLong(0);
        return new Usage(Math.max(0, prompt - cached), cached, 0, 0, candidates + thoughts, thoughts);
    }
}
