package dev.modelgateway.wire.vertex;

import dev.modelgateway.wire.EncodedRequest;

/**
 * Vendor C's models on Vertex: the same generateContent body as the Gemini Developer API (Google's Gen AI SDK sends
 * the same JSON in both modes: {@code VertexGeminiOracleTest}), on {@code publishers/google/models/{m}:{method}} of
 * the project's location, authorised by an OAuth Bearer token instead of {@code x-goog-api-key}. So the Gemini codec's
 * {@link EncodedRequest} is reused whole and only its path is moved (docs/clouds.md, "Vertex AI", for what differs).
 */
public final class VertexGemini {
    private static final String DEVELOPER_MODELS = "/v1beta/models/";

    private VertexGemini() {
    }

    /**
     * The Vertex path of a Developer API path: {@code /v1beta/models/{m}:generateContent} →
     * {@code /v1/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent}; the method and its query
     * ({@code :streamGenerateContent?alt=sse}) are kept. Vertex's {@code v1} is its GA version; the Gen AI SDK defaults
     * to {@code v1beta1}, which takes the same body.
     *
     * @throws IllegalArgumentException for a path that is not a Developer API model method, or for
     *                                  {@code :batchEmbedContents}, which Vertex does not have (embeddings on Vertex
     *                                  are {@link VertexEmbeddings})
     */
    public static String path(VertexLocation at, String developerPath) {
        int colon = developerPath.indexOf(':', DEVELOPER_MODELS.length());
        if (!developerPath.startsWith(DEVELOPER_MODELS) || colon < 0) {
            throw new IllegalArgumentException("not a Gemini model method path: " + developerPath);
        }
        String method = developerPath.substring(colon + 1);
        if (method.startsWith("batchEmbedContents")) {
            throw new IllegalArgumentException("Vertex AI has no batchEmbedContents: embeddings go through :predict");
        }
        return at.googlePath(developerPath.substring(DEVELOPER_MODELS.length(), colon), method);
    }

    /** The Gemini codec's request moved onto Vertex: the same body, headers and warnings, the Vertex path. */
    public static EncodedRequest onVertex(VertexLocation at, EncodedRequest developer) {
        return new EncodedRequest(path(at, developer.path()), developer.body(), developer.headers(), developer.warnings());
    }
}
