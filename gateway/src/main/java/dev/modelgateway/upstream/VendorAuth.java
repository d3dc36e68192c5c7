package dev.modelgateway.upstream;

import dev.modelgateway.config.VendorEndpoint;
import io.vertx.core.MultiMap;

/**
 * Each provider type's own credential header, as its official SDK sends it, then the operator's extra headers
 * (docs/configuration.md, "Providers").
 */
final class VendorAuth {
    static final String ANTHROPIC_VERSION = "2023-06-01";

    private VendorAuth() {
    }

    static void apply(VendorEndpoint endpoint, MultiMap headers) {
        String key = endpoint.apiKey();
        switch (endpoint.type()) {
            case ANTHROPIC -> {
                headers.set("x-api-key", key);
                headers.set("anthropic-version", ANTHROPIC_VERSION);
            }
            case OPENAI, DASHSCOPE -> headers.set("authorization", "Bearer " + key);
            // Azure OpenAI's key header, on the dated and the v1 API alike (learn.microsoft.com, "Azure OpenAI REST API reference")
            case AZURE_OPENAI -> headers.set("api-key", key);
            // a local server may run without a key (vLLM without --api-key, Ollama)
            case OPENAI_COMPATIBLE -> {
                if (key != null) headers.set("authorization", "Bearer " + key);
            }
            case GEMINI -> headers.set("x-goog-api-key", key);
            // vendor A's messages API on AWS: its version header, the credential signed or a bearer key (CloudAuth)
            case ANTHROPIC_AWS -> headers.set("anthropic-version", ANTHROPIC_VERSION);
            // the clouds' credentials are put on by CloudAuth, after these headers, so that SigV4 signs them
            case BEDROCK, BEDROCK_OPENAI, VERTEX -> {
            }
        }
        endpoint.headers().forEach(headers::set);
    }
}
