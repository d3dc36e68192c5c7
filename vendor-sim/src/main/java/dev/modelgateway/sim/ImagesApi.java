package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;

import java.util.Base64;
import java.util.List;

/**
 * OpenAI {@code /openai/v1/images/generations} (JSON) and {@code /images/edits} (multipart, {@code image} or
 * {@code image[]}). Every image is the same 1x1 PNG, as base64 or as a URL served from {@code /_sim/files/sim.png}.
 */
final class ImagesApi {
    static final String PNG_B64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    static final byte[] PNG = Base64.getDecoder().decode(PNG_B64);

    private final VendorSimulator sim;

    ImagesApi(VendorSimulator sim) {
        this.sim = sim;
    }

    void generations(Exchange ex, String body) {
        JsonNode root = Prelude.begin(sim, ex, body, null, ImagesApi::notFound);
        if (root == null) return;
        String prompt = Json.text(root, "prompt");
        if (prompt == null) {
            ex.fail(400, "Missing required parameter: 'prompt'.", "missing_required_parameter");
            return;
        }
        respond(ex, root.path("model").asText("dall-e-2"), prompt, root.path("n").asInt(1), Json.text(root, "response_format"));
    }

    void edits(Exchange ex, String body, Buffer raw) {
        List<Multipart.Part> parts = Multipart.parse(ex.req.getHeader("content-type"), raw);
        if (parts == null) { // the spec also allows JSON bodies
            JsonNode root = Prelude.begin(sim, ex, body, null, ImagesApi::notFound);
            if (root == null) return;
            if (!root.has("images") && !root.has("image")) {
                ex.fail(400, "Missing required parameter: 'image'.", "missing_required_parameter");
                return;
            }
            respond(ex, root.path("model").asText("dall-e-2"), root.path("prompt").asText(""), root.path("n").asInt(1), Json.text(root, "response_format"));
            return;
        }
        Multipart.Part model = Multipart.first(parts, "model"), prompt = Multipart.first(parts, "prompt");
        Multipart.Part n = Multipart.first(parts, "n"), format = Multipart.first(parts, "response_format");
        String modelId = model == null ? "dall-e-2" : model.text();
        ex.directive = sim.faults.resolve(ex.vendor, Directive.find(prompt == null ? "" : prompt.text()));
        if (modelId.contains("does-not-exist")) {
            ex.fail(404, notFound(modelId), "model_not_found");
            return;
        }
        if (ex.directive.status() > 0) {
            ex.fail(ex.directive.status(), null, null);
            return;
        }
        if (Multipart.first(parts, "image", "image[]") == null || prompt == null) {
            ex.fail(400, "Missing required parameter: '" + (prompt == null ? "prompt" : "image") + "'.", "missing_required_parameter");
            return;
        }
        respond(ex, modelId, prompt.text(), n == null ? 1 : Integer.parseInt(n.text().trim()), format == null ? null : format.text().trim());
    }

    private void respond(Exchange ex, String model, String prompt, int n, String responseFormat) {
        // GPT image models always return base64; DALL-E defaults to URLs.
        boolean gptImage = model.startsWith("gpt-image");
        boolean url = !gptImage && !"b64_json".equals(responseFormat);
        String host = ex.req.getHeader("host");
        ObjectNode out = Json.obj().put("created", System.currentTimeMillis() / 1000);
        ArrayNode data = out.putArray("data");
        for (int i = 0; i < Math.max(1, n); i++) {
            ObjectNode d = data.addObject();
            if (url) d.put("url", "http://" + (host == null ? "127.0.0.1" : host) + "/_sim/files/sim.png");
            else d.put("b64_json", PNG_B64);
            if (model.equals("dall-e-3")) d.put("revised_prompt", prompt);
        }
        if (gptImage) {
            int in = Tokens.of(prompt);
            ObjectNode usage = out.put("background", "opaque").put("output_format", "png").put("quality", "low").put("size", "1024x1024")
                    .putObject("usage").put("input_tokens", in).put("output_tokens", 16 * Math.max(1, n)).put("total_tokens", in + 16 * Math.max(1, n));
            usage.putObject("input_tokens_details").put("text_tokens", in).put("image_tokens", 0);
        }
        ex.ok(Json.write(out));
    }

    private static String notFound(String model) {
        return "The model `" + model + "` does not exist or you do not have access to it.";
    }
}
