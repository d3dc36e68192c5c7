package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** OpenAI {@code POST /openai/v1/embeddings}: batch input, float or base64 (little-endian float32) output. */
final class EmbeddingsApi {
    static final int DEFAULT_DIMENSIONS = 1536;
    private final VendorSimulator sim;

    EmbeddingsApi(VendorSimulator sim) {
        this.sim = sim;
    }

    void handle(Exchange ex, String body) {
        JsonNode root = Prelude.begin(sim, ex, body, null, m -> "The model `" + m + "` does not exist or you do not have access to it.");
        if (root == null) return;
        String model = Json.text(root, "model");
        JsonNode input = root.get("input");
        if (model == null || input == null) {
            ex.fail(400, "Missing required parameter: '" + (model == null ? "model" : "input") + "'.", "missing_required_parameter");
            return;
        }
        // A string, a list of strings, a token list, or a list of token lists.
        List<String> texts = new ArrayList<>();
        int tokens = 0;
        if (input.isTextual()) texts.add(input.asText());
        else if (input.isArray() && !input.isEmpty() && input.get(0).isNumber()) texts.add(input.toString());
        else for (JsonNode i : input) texts.add(i.isTextual() ? i.asText() : i.toString());
        for (String t : texts) {
            if (t.isEmpty()) {
                ex.fail(400, "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", null);
                return;
            }
        }
        int dims = root.path("dimensions").asInt(DEFAULT_DIMENSIONS);
        boolean base64 = "base64".equals(Json.text(root, "encoding_format"));
        ObjectNode out = Json.obj().put("object", "list");
        ArrayNode data = out.putArray("data");
        for (int i = 0; i < texts.size(); i++) {
            String t = texts.get(i);
            tokens += input.isArray() && input.get(i) != null && input.get(i).isArray() ? input.get(i).size()
                    : input.isArray() && input.get(0).isNumber() ? input.size() : Tokens.of(t);
            float[] v = Embeddings.vector(model + "|" + t, dims);
            ObjectNode e = data.addObject().put("object", "embedding").put("index", i);
            if (base64) e.put("embedding", encode(v));
            else {
                ArrayNode arr = e.putArray("embedding");
                for (float f : v) arr.add(f);
            }
        }
        out.put("model", model);
        out.putObject("usage").put("prompt_tokens", tokens).put("total_tokens", tokens);
        ex.ok(Json.write(out));
    }

    static String encode(float[] v) {
        ByteBuffer buf = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) buf.putFloat(f);
        return Base64.getEncoder().encodeToString(buf.array());
    }
}
