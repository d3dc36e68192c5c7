/**
 * Google Vertex AI's wire (docs/clouds.md, "Vertex AI"): where a project's location is served
 * ({@link VertexLocation}: host and resource paths), vendor A's messages body as Vertex's {@code rawPredict} takes it
 * ({@link VertexAnthropic}), vendor C's Developer-API paths moved onto Vertex ({@link VertexGemini}), Vertex's
 * google.rpc errors ({@link VertexErrors}), the codecs of both formats on Vertex, and the operations (token
 * counting, embeddings) on Vertex's endpoints.
 *
 * <p>Vertex serves vendor A's and vendor C's own formats: the bodies, answers and streams are theirs, so this package
 * reuses {@code wire/anthropic} and {@code wire/gemini}, and vendor B's embeddings list from {@code wire/openai/media}
 * (architecture/LayoutRules.WIRE_REUSE). May import wire (ports), canonical, catalogue, config, error, json; pure: no
 * I/O, no credentials (the Bearer token is the relay's).
 */
package dev.modelgateway.wire.vertex;
