package dev.modelgateway.observability;

import java.util.Locale;

/**
 * Names from the OpenTelemetry semantic conventions for generative AI (gen-ai-spans, gen-ai-metrics) and HTTP, and the
 * gateway's mapping of its routes and vendors onto their values.
 */
final class GenAi {
    static final String OPERATION = "gen_ai.operation.name";
    static final String PROVIDER = "gen_ai.provider.name";
    static final String REQUEST_MODEL = "gen_ai.request.model";
    static final String RESPONSE_MODEL = "gen_ai.response.model";
    static final String TOKEN_TYPE = "gen_ai.token.type";
    static final String INPUT_TOKENS = "gen_ai.usage.input_tokens";
    static final String OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
    static final String CACHE_READ_TOKENS = "gen_ai.usage.cache_read.input_tokens";
    static final String CACHE_CREATION_TOKENS = "gen_ai.usage.cache_creation.input_tokens";
    static final String REASONING_TOKENS = "gen_ai.usage.reasoning.output_tokens";
    static final String INPUT_MESSAGES = "gen_ai.input.messages";
    static final String ERROR_TYPE = "error.type";
    static final String HTTP_ROUTE = "http.route";

    private GenAi() {
    }

    /** {@code gen_ai.provider.name}: the conventions' well-known values where the vendor has one. */
    static String provider(String vendorId) {
        if (vendorId == null) return "unknown";
        return switch (vendorId) {
            case "anthropic" -> "anthropic";
            case "openai" -> "openai";
            case "gemini" -> "gcp.gemini";
            case "dashscope" -> "alibaba.dashscope";
            case "azure-openai" -> "azure.ai.openai";
            default -> vendorId.toLowerCase(Locale.ROOT);
        };
    }

    /** {@code gen_ai.operation.name} of a route. */
    static String operation(String route) {
        if (route == null) return "other";
        if (route.endsWith("/chat/completions") || route.endsWith("/messages") || route.endsWith("/responses")) return "chat";
        if (route.endsWith("/embeddings")) return "embeddings";
        if (route.contains("/images/") || route.contains("/audio/")) return "generate_content";
        if (route.contains("count") && route.contains("tokens")) return "count_tokens";
        if (route.endsWith("/realtime")) return "realtime";
        return "other";
    }

    /** The labels of the statuses 100–599, made once: a request's metrics allocate no string for them. */
    private static final String[] STATUS_CODES = new String[600];
    private static final String[] STATUS_CLASSES = new String[600];

    static {
        for (int s = 100; s < 600; s++) {
            STATUS_CODES[s] = Integer.toString(s);
            STATUS_CLASSES[s] = s == 499 ? "499" : (s / 100) + "xx";
        }
    }

    /**
     * The exact status as a label (OTel {@code http.response.status_code}): bounded, since the gateway chooses its
     * statuses, and a code outside 100–599 is {@code _OTHER} (the OTel convention for a value outside the known set).
     */
    static String statusCode(int status) {
        return status < 100 || status > 599 ? "_OTHER" : STATUS_CODES[status];
    }

    /** "2xx" … "5xx" ("499" kept apart: the caller left), "other" outside 100–599. */
    static String statusClass(int status) {
        return status < 100 || status > 599 ? "other" : STATUS_CLASSES[status];
    }
}
