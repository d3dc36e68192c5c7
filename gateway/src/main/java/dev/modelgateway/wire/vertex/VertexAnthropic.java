package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Vendor A's messages body as Vertex's {@code rawPredict} / {@code streamRawPredict} takes it
 * (https://docs.claude.com/en/api/claude-on-vertex-ai): {@code model} moves from the body into the path and
 * {@code anthropic_version} is {@code vertex-2023-10-16} in the body; nothing else changes, so cache control,
 * thinking blocks with their signatures and system entries in the middle of the conversation reach the model as the
 * caller wrote them. {@code stream} stays in the body (Vertex's streamRawPredict reads it, unlike Bedrock), and
 * {@code anthropic-beta} stays a header: Anthropic's own Vertex client changes neither (the oracle:
 * {@code VertexAnthropicOracleTest}). The answer and its SSE stream are vendor A's own, so its codec and native tap
 * read them unchanged.
 */
public final class VertexAnthropic {
    /** The only {@code anthropic_version} Vertex accepts for vendor A's models. */
    public static final String VERSION = "vertex-2023-10-16";

    private VertexAnthropic() {
    }

    /**
     * Turns a messages body into the rawPredict body, in place, and returns its path. The version is set whatever the
     * body held (a value meant for vendor A's own API or Bedrock would be refused), as Anthropic's client does;
     * whether the call streams is read from the body's {@code stream}, as Anthropic's client chooses the method.
     *
     * @param body  the body as it would go to vendor A (the native path's copy, {@code model} included or not)
     * @param model the deployment's Vertex model id, e.g. {@code claude-sonnet-4@20250514}
     */
    public static String prepare(ObjectNode body, VertexLocation at, String model) {
        body.remove("model");
        body.put("anthropic_version", VERSION);
        return at.anthropicPath(model, body.path("stream").asBoolean(false));
    }

    /**
     * A token count's body, in place: vendor A's count body ({@code model} included: Vertex's one count-tokens
     * endpoint reads the model from the body) with the Vertex version. Its path is
     * {@link VertexLocation#anthropicCountTokensPath()}.
     */
    public static void prepareCount(ObjectNode countBody, String model) {
        countBody.put("model", VertexLocation.checkedModel(model));
        countBody.put("anthropic_version", VERSION);
    }
}
