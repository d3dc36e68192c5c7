package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;

import java.util.List;
import java.util.Set;

/** Platform rules for the Responses API (docs/contract.md §1.5, §2.5), checked for every model of the plan before any attempt. */
public final class ResponsesRules {
    static final List<String> EFFORTS = List.of("low", "medium", "high", "xhigh", "max");
    static final Set<String> WEB_SEARCH_TOOLS = Set.of("web_search", "web_search_2025_08_26", "web_search_preview",
            "web_search_preview_2025_03_11");
    static final String LOGPROBS_INCLUDE = "message.output_text.logprobs";

    private ResponsesRules() {
    }

    public static void check(ObjectNode body, ModelEntry model) {
        JsonNode effort = body.path("reasoning").get("effort");
        if (effort != null && !effort.isNull() && !EFFORTS.contains(effort.asText())) {
            throw GatewayException.invalid("reasoning.effort", "'reasoning.effort' must be one of " + String.join(", ", EFFORTS)
                    + "; got '" + effort.asText() + "'.");
        }
        if (!model.samplingParams()) {
            for (String p : List.of("temperature", "top_p", "top_logprobs")) {
                if (body.hasNonNull(p)) throw seriesSix(p, model);
            }
            for (JsonNode inc : body.path("include")) {
                if (LOGPROBS_INCLUDE.equals(inc.asText())) throw seriesSix("include", model);
            }
        }
        JsonNode tools = body.path("tools");
        for (int i = 0; i < tools.size(); i++) {
            String type = tools.get(i).path("type").asText();
            if (WEB_SEARCH_TOOLS.contains(type) && !(model.vendor() == Vendor.OPENAI && model.has("web_search"))) {
                throw GatewayException.invalid("tools[" + i + "].type", "The built-in '" + type + "' tool is available only "
                        + "for the series 6 astra model (platform/vendorB-6-astra), not for " + model.id()
                        + ". For other models, use function tools (type 'function') or MCP.");
            }
        }
    }

    private static GatewayException seriesSix(String param, ModelEntry model) {
        return GatewayException.invalid(param, "'" + param + "' is not supported by " + model.id() + ": series 6 models "
                + "take neither temperature, top_p nor log-probability parameters. Remove '" + param + "'.");
    }
}
