package dev.modelgateway.sim;

import io.vertx.core.buffer.Buffer;

/** OpenAI endpoints beyond Chat Completions (Responses, embeddings, images, audio, realtime). */
final class OpenAiExtrasApi {
    private final VendorSimulator sim;
    private final ResponsesApi responses;
    private final EmbeddingsApi embeddings;
    private final ImagesApi images;
    private final AudioApi audio;

    OpenAiExtrasApi(VendorSimulator sim) {
        this.sim = sim;
        this.responses = new ResponsesApi(sim);
        this.embeddings = new EmbeddingsApi(sim);
        this.images = new ImagesApi(sim);
        this.audio = new AudioApi(sim);
    }

    void handle(Exchange ex, String path, String body, Buffer raw) {
        if (path.startsWith("/openai/v1/responses/") && responses.stored().handle(ex, path)) return;
        switch (path) {
            case "/openai/v1/responses" -> responses.handle(ex, body);
            case "/openai/v1/embeddings" -> embeddings.handle(ex, body);
            case "/openai/v1/images/generations" -> images.generations(ex, body);
            case "/openai/v1/images/edits" -> images.edits(ex, body, raw);
            case "/openai/v1/audio/speech" -> audio.speech(ex, body);
            case "/openai/v1/audio/transcriptions" -> audio.transcriptions(ex, raw);
            default -> ex.fail(404, "Invalid URL (" + ex.req.method() + " " + path.substring("/openai".length()) + ")", "unknown_url");
        }
    }
}
