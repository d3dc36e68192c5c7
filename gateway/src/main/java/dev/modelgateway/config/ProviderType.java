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
    OPENAI_COMPATIBLE("openai-compatible", Vendor.OPENAI),
    /**
     * AWS Bedrock Runtime (docs/clouds.md, "Bedrock"): vendor A's models through InvokeModel with vendor A's own body,
     * any model through Converse; SigV4-signed with the provider's AWS credentials, or a Bedrock API key.
     */
    BEDROCK("bedrock", null),
    /** Google Vertex AI (docs/clouds.md, "Vertex AI"): vendor A's models by rawPredict, Gemini by generateContent. */
    VERTEX("vertex", null),
    /** Claude Platform on AWS: vendor A's messages API on an AWS host, SigV4-signed, with a workspace id. */
    ANTHROPIC_AWS("anthropic-aws", Vendor.ANTHROPIC),
    /** Bedrock's OpenAI-compatible endpoint: chat completions and Responses for vendor B's models on AWS. */
    BEDROCK_OPENAI("bedrock-openai", Vendor.OPENAI);

    private final String id;
    private final Vendor wire;

    ProviderType(String id, Vendor wire) {
        this.id = id;
        this.wire = wire;
    }

    public String id() { return id; }

    /**
     * Whether a deployment of this provider can serve a model of vendor {@code v} through {@code api}: a vendor's own
     * API serves its own models; Bedrock serves vendor A's through Invoke and any model through Converse; Vertex
     * serves vendor A's and vendor C's.
     */
    public boolean serves(Vendor v, DeploymentApi api) {
        return switch (this) {
            case BEDROCK -> api == DeploymentApi.CONVERSE || v == Vendor.ANTHROPIC;
            case VERTEX -> v == Vendor.ANTHROPIC || v == Vendor.GEMINI;
            default -> v == wire;
        };
    }

    /** The vendor whose models a provider of a single wire format serves; null for a cloud serving several. */
    public Vendor wire() { return wire; }

    /** A cloud whose calls are signed or carry a token from its own credentials rather than a vendor's key. */
    public boolean cloud() {
        return this == BEDROCK || this == VERTEX || this == ANTHROPIC_AWS || this == BEDROCK_OPENAI;
    }

    /** A vendor's own API served by a cloud (Claude Platform on AWS, Bedrock's OpenAI endpoint): its models as the vendor's. */
    public boolean vendorsOwnApi() {
        return this == ANTHROPIC_AWS || this == BEDROCK_OPENAI;
    }

    /** False for servers that may run without credentials (a local vLLM or Ollama) and for the clouds' own credentials. */
    public boolean needsKey() {
        return this != OPENAI_COMPATIBLE && !cloud();
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
                + " openai-compatible, bedrock, vertex, anthropic-aws, bedrock-openai; got '" + value + "'");
    }
}
