package dev.modelgateway.config;

import java.util.Locale;

/**
 * What a provider speaks (docs/configuration.md, "Providers"): the wire format of its models ({@link #wire()}, which
 * picks the codec) and how it is addressed and authenticated.
 */
public enum ProviderType {
    ANTHROPIC("anthropic", Vendor.ANTHROPIC),
    OPENAI("openai", Vendor.OPENAI),
    /**
     * Azure OpenAI: vendor B's wire format on deployment URLs
     * {@code {base}/openai/deployments/{deployment}/chat/completions?api-version=...} with an {@code api-key} header
     * (learn.microsoft.com, "Azure OpenAI in Azure AI Foundry Models REST API reference").
     */
    AZURE_OPENAI("azure-openai", Vendor.OPENAI),
    GEMINI("gemini", Vendor.GEMINI),
    DASHSCOPE("dashscope", Vendor.DASHSCOPE),
    /** Any server speaking chat completions and embeddings (vLLM, Ollama, LM Studio…); a key is optional. */
    OPENAI_COMPATIBLE("openai-compatible", Vendor.OPENAI);

    private final String id;
    private final Vendor wire;

    ProviderType(String id, Vendor wire) {
        this.id = id;
        this.wire = wire;
    }

    public String id() { return id; }

    /** The wire format its models speak. */
    public Vendor wire() { return wire; }

    /** False for servers that may run without credentials (a local vLLM or Ollama). */
    public boolean needsKey() {
        return this != OPENAI_COMPATIBLE;
    }

    /** The built-in provider type of one of the four vendors. */
    public static ProviderType of(Vendor v) {
        return switch (v) {
            case ANTHROPIC -> ANTHROPIC;
            case OPENAI -> OPENAI;
            case GEMINI -> GEMINI;
            case DASHSCOPE -> DASHSCOPE;
        };
    }

    public static ProviderType parse(String setting, String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        for (ProviderType t : values()) if (t.id.equals(v)) return t;
        throw new IllegalArgumentException(setting + " must be one of anthropic, openai, azure-openai, gemini, dashscope,"
                + " openai-compatible; got '" + value + "'");
    }
}
