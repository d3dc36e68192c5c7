package dev.modelgateway.sim;

import io.vertx.core.buffer.Buffer;

/** OpenAI endpoints beyond Chat Completions (Responses, embeddings, images, audio, realtime). */
final class OpenAiExtrasApi {
    private final VendorSimulator sim;

    OpenAiExtrasApi(VendorSimulator sim) {
        this.sim = sim;
    }

    void handle(Exchange ex, String path, String body, Buffer raw) {
        ex.fail(404, "Invalid URL (POST " + path + ")", null);
    }
}
