package dev.modelgateway.endpoint.embeddings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

import java.util.ArrayList;
import java.util.List;

/**
 * A validated embeddings request: {@code input} as a string, strings, a token list or token lists
 * (vendor B's limits: at most 2048 items, no empty strings), {@code encoding_format} and {@code dimensions}.
 *
 * @param texts   the inputs as text, or null when the caller sent token ids
 * @param base64  the caller wants packed little-endian float32 in base64
 * @param dimensions null when unset
 */
record EmbeddingsRequest(ObjectNode body, String model, List<String> texts, boolean base64, Integer dimensions) {
    static final int MAX_ITEMS = 2048;

    static EmbeddingsRequest parse(ObjectNode body) {
        String model = Fields.requiredString(body, "model");
        JsonNode input = body.get("input");
        if (input == null || input.isNull()) throw GatewayException.invalid("input", "Missing required parameter: 'input'.");
        List<String> texts = texts(input);
        JsonNode format = body.get("encoding_format");
        boolean base64 = false;
        if (format != null && !format.isNull()) {
            if (!format.isTextual() || !(format.asText().equals("float") || format.asText().equals("base64"))) {
                throw GatewayException.invalid("encoding_format", "'encoding_format' must be 'float' or 'base64'.");
            }
            base64 = format.asText().equals("base64");
        }
        Integer dimensions = null;
        JsonNode dims = body.get("dimensions");
        if (dims != null && !dims.isNull()) {
            long d = Fields.nonNegativeInt(dims, "dimensions");
            if (d < 1 || d > 65_536) throw GatewayException.invalid("dimensions", "'dimensions' must be between 1 and 65536.");
            dimensions = (int) d;
        }
        return new EmbeddingsRequest(body, model, texts, base64, dimensions);
    }

    /** The inputs as strings; null for token-id input, which only vendor B accepts. */
    private static List<String> texts(JsonNode input) {
        if (input.isTextual()) {
            if (input.asText().isEmpty()) throw GatewayException.invalid("input", "'input' must not be an empty string.");
            return List.of(input.asText());
        }
        if (!input.isArray()) throw Fields.wrongType("input", "a string or an array", input);
        if (input.isEmpty()) throw GatewayException.invalid("input", "'input' must not be empty.");
        if (input.size() > MAX_ITEMS) {
            throw GatewayException.invalid("input", "'input' has " + input.size() + " items; at most " + MAX_ITEMS + " are allowed.");
        }
        if (input.get(0).isNumber()) {
            for (JsonNode t : input) if (!t.isIntegralNumber()) throw GatewayException.invalid("input", "'input' token ids must be integers.");
            return null;
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            String p = "input[" + i + "]";
            if (item.isArray()) {
                for (JsonNode t : item) if (!t.isIntegralNumber()) throw GatewayException.invalid(p, "'" + p + "' token ids must be integers.");
                if (out != null && !out.isEmpty()) throw GatewayException.invalid(p, "'input' mixes strings and token lists.");
                out = null;
                continue;
            }
            if (out == null) throw GatewayException.invalid(p, "'input' mixes strings and token lists.");
            if (!item.isTextual()) throw Fields.wrongType(p, "a string", item);
            if (item.asText().isEmpty()) throw GatewayException.invalid(p, "'" + p + "' must not be an empty string.");
            out.add(item.asText());
        }
        return out;
    }
}
