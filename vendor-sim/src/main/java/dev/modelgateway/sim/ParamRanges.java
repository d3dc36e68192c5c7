package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Map;

/**
 * Parameter ranges the vendors enforce themselves, so that a gateway relaying an out-of-range value meets the
 * vendor's 400 as it would in production. Each check returns the vendor's message, or null when the value is fine.
 */
final class ParamRanges {
    /** OpenAI's refusal: the message, the parameter it names ({@code error.param}) and the code. */
    record Refusal(String message, String param, String code) {
    }

    private ParamRanges() {
    }

    /**
     * OpenAI chat completions and Responses: {@code temperature} 0–2, {@code top_logprobs} 0–20, {@code logit_bias}
     * values −100–100 (OpenAI's API reference for chat completions and responses), in OpenAI's "Invalid 'field': … above maximum
     * value" wording.
     */
    static Refusal openai(JsonNode root) {
        Refusal t = openaiRange(root.get("temperature"), "temperature", 0, 2, "decimal");
        if (t != null) return t;
        Refusal lp = openaiRange(root.get("top_logprobs"), "top_logprobs", 0, 20, "integer");
        if (lp != null) return lp;
        JsonNode bias = root.get("logit_bias");
        if (bias != null && bias.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = bias.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                Refusal b = openaiRange(e.getValue(), "logit_bias." + e.getKey(), -100, 100, "integer");
                if (b != null) return b;
            }
        }
        return null;
    }

    /** DashScope compatible mode: temperature in [0, 2), the upper bound exclusive (2.0 itself is refused). */
    static String dashscope(JsonNode root) {
        JsonNode t = root.get("temperature");
        if (t == null || !t.isNumber() || (t.doubleValue() >= 0 && t.doubleValue() < 2)) return null;
        return "<400> InternalError.Algo.InvalidParameter: Temperature should be in [0.0, 2.0)";
    }

    /** Anthropic: a {@code cache_control} TTL is "5m" or "1h" (protocols/anthropic-messages.md §3), pydantic-style path. */
    static String anthropicTtl(JsonNode cacheControl, String path) {
        if (cacheControl == null || !cacheControl.isObject()) return null;
        JsonNode ttl = cacheControl.get("ttl");
        if (ttl == null || ttl.isNull() || "5m".equals(ttl.asText()) || "1h".equals(ttl.asText())) return null;
        return path + "cache_control.ephemeral.ttl: Input should be '5m' or '1h'";
    }

    private static Refusal openaiRange(JsonNode v, String name, double min, double max, String kind) {
        if (v == null || !v.isNumber()) return null;
        double d = v.doubleValue();
        if (d > max) return new Refusal("Invalid '" + name + "': " + kind + " above maximum value. Expected a value <= " + fmt(max)
                + ", but got " + v.asText() + " instead.", name, kind + "_above_max_value");
        if (d < min) return new Refusal("Invalid '" + name + "': " + kind + " below minimum value. Expected a value >= " + fmt(min)
                + ", but got " + v.asText() + " instead.", name, kind + "_below_min_value");
        return null;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
