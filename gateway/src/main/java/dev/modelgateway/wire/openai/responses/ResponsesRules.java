package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;

import java.util.ArrayList;
import java.util.HashSet;
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

    /**
     * Removes from {@code tools} the hosted tools that a model of the plan refuses — the built-in web search off
     * astra, any tool but functions and namespaces off vendor B — when the operator chose to drop them rather than
     * refuse the call (docs/configuration.md, {@code responses.drop_refused_hosted_tools}): clients such as Codex
     * always send {@code web_search}. A {@code tool_choice} naming a dropped tool type becomes {@code auto}.
     *
     * @return one warning per dropped tool, for {@code x-platform-warnings}
     */
    public static List<String> dropRefusedHostedTools(ObjectNode body, List<ModelEntry> plan) {
        List<String> warnings = new ArrayList<>();
        if (!(body.get("tools") instanceof ArrayNode tools)) return warnings;
        Set<String> dropped = new HashSet<>();
        ArrayNode kept = tools.arrayNode();
        for (int i = 0; i < tools.size(); i++) {
            String type = tools.get(i).path("type").asText();
            ModelEntry refusing = plan.stream().filter(m -> refuses(type, m)).findFirst().orElse(null);
            if (refusing == null) {
                kept.add(tools.get(i));
                continue;
            }
            dropped.add(type);
            warnings.add("tools[" + i + "]: the hosted '" + type + "' tool is not available for " + refusing.id() + " and was dropped");
        }
        if (dropped.isEmpty()) return warnings;
        body.set("tools", kept);
        JsonNode choice = body.get("tool_choice");
        if (choice != null && dropped.contains(choice.path("type").asText())) {
            body.put("tool_choice", "auto");
            warnings.add("tool_choice: named a dropped hosted tool; 'auto' was used");
        }
        return warnings;
    }

    private static boolean refuses(String type, ModelEntry model) {
        if (WEB_SEARCH_TOOLS.contains(type)) return !(model.vendor() == Vendor.OPENAI && model.has("web_search"));
        return model.vendor() != Vendor.OPENAI && !type.equals("function") && !type.equals("namespace");
    }

    private static GatewayException seriesSix(String param, ModelEntry model) {
        return GatewayException.invalid(param, "'" + param + "' is not supported by " + model.id() + ": series 6 models "
                + "take neither temperature, top_p nor log-probability parameters. Remove '" + param + "'.");
    }
}
