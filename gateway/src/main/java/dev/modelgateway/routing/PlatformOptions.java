package dev.modelgateway.routing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The platform's own request field (docs/contract.md §2.2), removed from the body before anything goes upstream.
 * Defaults when absent are documented in docs/platform-options.md.
 *
 * @param timeoutSeconds server-side deadline; null when the caller did not set one
 * @param maxRetries     retries of the primary and of each fallback on 429, 5xx and timeouts
 * @param fallbacks      models tried in order once the primary's retries are spent
 */
public record PlatformOptions(Double timeoutSeconds, int maxRetries, List<ModelEntry> fallbacks) {
    public static final String FIELD = "platform_options";
    public static final int DEFAULT_MAX_RETRIES = 1;
    private static final Set<String> KNOWN = Set.of("timeout", "max_retries", "fallbacks");

    public static final PlatformOptions DEFAULTS = new PlatformOptions(null, DEFAULT_MAX_RETRIES, List.of());

    /** Removes {@code platform_options} from {@code body} and validates it. */
    public static PlatformOptions extract(ObjectNode body, Catalogue catalogue) {
        JsonNode node = body.remove(FIELD);
        if (node == null || node.isNull()) return DEFAULTS;
        if (!node.isObject()) throw Fields.wrongType(FIELD, "an object", node);
        for (var it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!KNOWN.contains(name)) {
                throw GatewayException.invalid(FIELD + "." + name, "Unknown field '" + FIELD + "." + name
                        + "'; platform_options accepts timeout, max_retries and fallbacks.");
            }
        }
        Double timeout = null;
        JsonNode t = node.get("timeout");
        if (t != null && !t.isNull()) {
            String param = FIELD + ".timeout";
            if (!t.isNumber()) throw Fields.wrongType(param, "a number of seconds", t);
            double v = t.doubleValue();
            if (v < 0 || v > 300) {
                throw GatewayException.invalid(param, "'" + param + "' must be between 0 and 300 seconds, got " + t.asText() + ".");
            }
            timeout = v;
        }
        int retries = DEFAULT_MAX_RETRIES;
        JsonNode r = node.get("max_retries");
        if (r != null && !r.isNull()) {
            String param = FIELD + ".max_retries";
            if (!r.isIntegralNumber()) throw Fields.wrongType(param, "an integer", r);
            if (r.longValue() < 1 || r.longValue() > 3) {
                throw GatewayException.invalid(param, "'" + param + "' must be between 1 and 3, got " + r.asText() + ".");
            }
            retries = r.intValue();
        }
        List<ModelEntry> fallbacks = new ArrayList<>();
        JsonNode f = node.get("fallbacks");
        if (f != null && !f.isNull()) {
            String param = FIELD + ".fallbacks";
            if (!f.isArray()) throw Fields.wrongType(param, "an array of model ids", f);
            for (int i = 0; i < f.size(); i++) {
                JsonNode id = f.get(i);
                String p = param + "[" + i + "]";
                if (!id.isTextual()) throw Fields.wrongType(p, "a model id string", id);
                fallbacks.add(catalogue.requireKnown(id.asText(), p));
            }
        }
        return new PlatformOptions(timeout, retries, List.copyOf(fallbacks));
    }
}
