package dev.modelgateway.config;

/**
 * The four upstream vendors and the environment variables that configure them. Base URLs follow each
 * vendor SDK's own convention: OpenAI's and DashScope's include {@code /v1}, Anthropic's and Gemini's
 * are bare hosts.
 */
public enum Vendor {
    ANTHROPIC("anthropic", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "https://api.anthropic.com"),
    OPENAI("openai", "OPENAI_API_KEY", "OPENAI_BASE_URL", "https://api.openai.com/v1"),
    GEMINI("gemini", "GEMINI_API_KEY", "GEMINI_BASE_URL", "https://generativelanguage.googleapis.com"),
    DASHSCOPE("dashscope", "DASHSCOPE_API_KEY", "DASHSCOPE_BASE_URL",
            "https://dashscope-intl.aliyuncs.com/compatible-mode/v1");

    private final String id;
    private final String keyEnv;
    private final String baseUrlEnv;
    private final String defaultBaseUrl;

    Vendor(String id, String keyEnv, String baseUrlEnv, String defaultBaseUrl) {
        this.id = id;
        this.keyEnv = keyEnv;
        this.baseUrlEnv = baseUrlEnv;
        this.defaultBaseUrl = defaultBaseUrl;
    }

    public String id() { return id; }
    public String keyEnv() { return keyEnv; }
    public String baseUrlEnv() { return baseUrlEnv; }
    public String defaultBaseUrl() { return defaultBaseUrl; }

    public static Vendor fromId(String id) {
        for (Vendor v : values()) if (v.id.equals(id)) return v;
        throw new IllegalArgumentException("unknown vendor '" + id + "' (expected anthropic, openai, gemini or dashscope)");
    }
}
