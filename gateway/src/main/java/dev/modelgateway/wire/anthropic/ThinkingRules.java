package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ReasoningBudgets;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ThinkingPolicy;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

import java.util.Set;

/**
 * docs/contract.md §2.3: opus-4.7, opus-4.8 and sonnet-5 refuse {@code enabled}+{@code budget_tokens} and take
 * {@code adaptive} with {@code output_config.effort}; sonnet-5 thinks unless told not to.
 */
public final class ThinkingRules {
    static final Set<String> TYPES = Set.of("enabled", "adaptive", "disabled");
    static final Set<String> EFFORTS = Set.of("low", "medium", "high", "xhigh", "max");

    private ThinkingRules() {
    }

    public static void apply(ObjectNode body, ModelEntry entry) {
        ThinkingPolicy policy = entry.thinking();
        ObjectNode thinking = Fields.optionalObject(body, "thinking", "thinking");
        ObjectNode outputConfig = Fields.optionalObject(body, "output_config", "output_config");
        if (outputConfig != null && outputConfig.has("effort")) {
            JsonNode effort = outputConfig.get("effort");
            if (!effort.isTextual() || !EFFORTS.contains(effort.asText())) {
                throw GatewayException.invalid("output_config.effort", "Invalid value for 'output_config.effort': expected one of "
                        + "low, medium, high, xhigh, max.");
            }
        }
        if (thinking == null) {
            if (policy.defaultOn()) body.putObject("thinking").put("type", "adaptive");
            return;
        }
        JsonNode type = thinking.get("type");
        if (type == null || !type.isTextual() || !TYPES.contains(type.asText())) {
            throw GatewayException.invalid("thinking.type", "Invalid value for 'thinking.type': expected one of "
                    + "enabled, adaptive, disabled.");
        }
        if (type.asText().equals("enabled")) {
            if (!policy.budgetAllowed()) {
                throw GatewayException.invalid("thinking.type", "Model '" + entry.id() + "' does not support 'thinking.type': "
                        + "'enabled' with 'budget_tokens'. Use {\"type\": \"adaptive\"} and set the reasoning effort with "
                        + "output_config.effort (low, medium, high, xhigh or max).");
            }
            JsonNode budget = thinking.get("budget_tokens");
            if (budget == null || budget.isNull()) {
                throw GatewayException.invalid("thinking.budget_tokens", "Missing required parameter: 'thinking.budget_tokens' "
                        + "(required with thinking type 'enabled').");
            }
            Fields.nonNegativeInt(budget, "thinking.budget_tokens");
        }
    }

    /**
     * The same rules for a translated request to vendor A: a chat caller cannot say "adaptive", so a
     * budget (or effort word) becomes adaptive thinking with the matching effort on models that refuse
     * budgets, and models that think by default get adaptive thinking when nothing was asked.
     */
    public static CanonicalRequest adapt(CanonicalRequest request, ModelEntry entry) {
        if (entry.vendor() != Vendor.ANTHROPIC) return request;
        ThinkingPolicy policy = entry.thinking();
        ReasoningConfig r = request.reasoning();
        ReasoningConfig adapted = r;
        if (r == null && policy.defaultOn()) {
            adapted = new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null, null);
        } else if (r != null && r.mode() == ReasoningConfig.Mode.ENABLED && !policy.budgetAllowed()) {
            String effort = ReasoningBudgets.effortOf(r);
            if (effort == null || effort.equals("minimal")) effort = "low";
            adapted = new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null, effort);
        }
        return adapted == r ? request : request.toBuilder().reasoning(adapted).build();
    }
}
