package dev.modelgateway.wire.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Vendor A's messages call on Bedrock's InvokeModel / InvokeModelWithResponseStream (Bedrock User Guide, "Anthropic
 * Claude Messages API": the request body is vendor A's own): {@code model} moves to the path and {@code stream} to the
 * operation, {@code anthropic_version} is {@code bedrock-2023-05-31} unless the body has one, and the
 * {@code anthropic-beta} header's values travel as the body's {@code anthropic_beta} array (Bedrock reads no
 * {@code anthropic-*} header). Everything else is sent as the caller wrote it: cache control, thinking blocks and
 * their signatures, system entries in the conversation; Bedrock's non-stream answer is vendor A's JSON unchanged.
 */
public final class BedrockInvoke {
    public static final String ANTHROPIC_VERSION = "bedrock-2023-05-31";
    /** The caller's headers that become body fields here, never sent to Bedrock. */
    public static final Set<String> HEADERS_IN_BODY = Set.of("anthropic-beta", "anthropic-version");

    private BedrockInvoke() {
    }

    /** {@code /model/{id}/invoke} or {@code /model/{id}/invoke-with-response-stream}, the id encoded as the AWS SDK does. */
    public static String path(BedrockModelId model, boolean stream) {
        return path(model.id(), stream);
    }

    /** The same for any configured id (Bedrock refuses one it does not know with its own 400). */
    public static String path(String model, boolean stream) {
        return "/model/" + BedrockModelId.pathSegment(model) + (stream ? "/invoke-with-response-stream" : "/invoke");
    }

    /**
     * Rewrites a messages body (the caller's copy the native path already holds) into Bedrock's, in place.
     *
     * @param anthropicBeta the caller's {@code anthropic-beta} header (comma-separated values), or null
     */
    public static ObjectNode adapt(ObjectNode body, String anthropicBeta) {
        body.remove("model");
        body.remove("stream");
        if (!body.has("anthropic_version")) body.put("anthropic_version", ANTHROPIC_VERSION);
        Set<String> betas = new LinkedHashSet<>();
        if (body.get("anthropic_beta") instanceof ArrayNode given) {
            for (JsonNode b : given) if (b.isTextual()) betas.add(b.asText());
        }
        if (anthropicBeta != null) {
            for (String b : anthropicBeta.split(",")) if (!b.isBlank()) betas.add(b.trim());
        }
        if (!betas.isEmpty()) {
            ArrayNode out = body.putArray("anthropic_beta");
            betas.forEach(out::add);
        }
        return body;
    }

    /** {@link #adapt} and the bytes to send. */
    public static Buffer body(ObjectNode body, String anthropicBeta) {
        return Json.toBuffer(adapt(body, anthropicBeta));
    }

    /** The same from a body's bytes (a request the gateway did not parse); null when they are not a JSON object. */
    public static Buffer body(Buffer raw, String anthropicBeta) {
        return Json.parseOrNull(raw) instanceof ObjectNode o ? body(o, anthropicBeta) : null;
    }
}
