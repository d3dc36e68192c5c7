package dev.modelgateway.upstream;

import dev.modelgateway.config.VendorEndpoint;
import io.vertx.core.MultiMap;

/** Each vendor's own credential header, as its official SDK sends it. */
final class VendorAuth {
    static final String ANTHROPIC_VERSION = "2023-06-01";

    private VendorAuth() {
    }

    static void apply(VendorEndpoint endpoint, MultiMap headers) {
        String key = endpoint.apiKey();
        switch (endpoint.vendor()) {
            case ANTHROPIC -> {
                headers.set("x-api-key", key);
                headers.set("anthropic-version", ANTHROPIC_VERSION);
            }
            case OPENAI, DASHSCOPE -> headers.set("authorization", "Bearer " + key);
            case GEMINI -> headers.set("x-goog-api-key", key);
        }
    }
}
