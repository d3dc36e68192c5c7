package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.buffer.Buffer;

/**
 * Bedrock's OpenAI-compatible endpoint on Bedrock Runtime (Bedrock User Guide, "Chat Completions API" and "Responses
 * API": base URL {@code https://bedrock-runtime.{region}.amazonaws.com/openai/v1}), mounted here at
 * {@code /bedrock-openai/openai/v1}: {@code POST /chat/completions} and {@code /responses}, answered as vendor B's
 * own ({@link ChatCompletionsApi}, {@link ResponsesApi}). Every request's SigV4 signature (service {@code bedrock}, the
 * Bedrock double's key pairs) or Bedrock API key is checked first, with the Bedrock double's own check.
 * On bedrock-runtime the Responses API "is always synchronous" ("Using the Responses API on the bedrock-runtime
 * endpoint"): {@code background: true} is refused. Errors are vendor B's shape; the signature's carry AWS's type as
 * their {@code code}.
 */
final class BedrockOpenAiApi {
    static final String PREFIX = "/bedrock-openai/openai/v1";

    private final BedrockSignatures signatures;
    private final ChatCompletionsApi chat;
    private final ResponsesApi responses;

    BedrockOpenAiApi(VendorSimulator sim, BedrockSignatures bedrock) {
        this.signatures = bedrock;
        this.chat = new ChatCompletionsApi(sim, ChatCompletionsApi.Flavor.OPENAI);
        this.responses = new ResponsesApi(sim);
    }

    void handle(Exchange ex, String path, String body, Buffer raw) {
        ex.header("x-amzn-RequestId", VendorErrors.requestId(""));
        BedrockSignatures.Refusal refused = signatures.check(ex.req, raw);
        if (refused != null) {
            ex.fail(403, refused.message(), refused.type());
            return;
        }
        switch (path.substring(PREFIX.length())) {
            case "/chat/completions" -> chat.handle(ex, body);
            case "/responses" -> {
                if (background(body)) {
                    ex.failOpenAi(400, new ParamRanges.Refusal("Background mode is not supported on the bedrock-runtime"
                            + " endpoint; use bedrock-mantle.", "background", "unsupported_parameter"));
                } else {
                    responses.handle(ex, body);
                }
            }
            default -> ex.fail(404, "Invalid URL (" + ex.req.method() + " " + path + ")", "unknown_url");
        }
    }

    private static boolean background(String body) {
        try {
            JsonNode root = Json.MAPPER.readTree(body);
            return root != null && root.path("background").asBoolean(false);
        } catch (Exception e) {
            return false;
        }
    }
}
