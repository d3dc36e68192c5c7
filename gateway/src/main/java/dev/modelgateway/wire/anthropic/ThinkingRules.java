package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ReasoningBudgets;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ThinkingPolicy;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

/**
 * docs/contract.md §2.3: opus-4.7, opus-4.8 and sonnet-5 refuse {@code enabled}+{@code budget_tokens} and take
 * {@code adaptive} with {@code output_config.effort}; sonnet-5 thinks unless told not to.
 */
public final class ThinkingRules {
    private ThinkingRules() {
    }

    /**
     * The model's rules for a messages body already checked by {@link MessagesRequestBounds}: a budget refused
     * by the newer models is a 400, and a model that thinks by default gets adaptive thinking when the body
     * does not mention thinking, unless {@code tool_choice} forces a tool (vendor A refuses thinking with a
     * forced tool; a caller who forces one without asking for reasoning must not be refused for a default).
     */
    public static void apply(ObjectNode body, ModelEntry entry) {
        ThinkingPolicy policy = entry.thinking();
        ObjectNode thinking = Fields.optionalObject(body, "thinking", "thinking");
        if (thinking == null) {
            String choice = body.path("tool_choice").path("type").asText();
            boolean forced = choice.equals("any") || choice.equals("tool");
            if (policy.defaultOn() && !forced) body.putObject("thinking").put("type", "adaptive");
            return;
        }
        if ("enabled".equals(thinking.path("type").asText()) && !policy.budgetAllowed()) {
            throw GatewayException.invalid("thinking.type", "Model '" + entry.id() + "' does not support 'thinking.type': "
                    + "'enabled' with 'budget_tokens'. Use {\"type\": \"adaptive\"} and set the reasoning effort with "
                    + "output_config.effort (low, medium, high, xhigh or max).");
        }
    }

    /**
     * The same rules for a translated request to vendor A: a chat caller cannot say "adaptive", so a
     * budget (or effort word) becomes adaptive thinking with the matching effort on models that refuse
     * budgets, and models that think by default get adaptive thinking when nothing was asked and no tool is
     * forced.
     */
    public static CanonicalRequest adapt(CanonicalRequest request, ModelEntry entry) {
        if (entry.vendor() != Vendor.ANTHROPIC) return request;
        ThinkingPolicy policy = entry.thinking();
        ReasoningConfig r = request.reasoning();
        ReasoningConfig adapted = r;
        boolean forced = request.toolChoice() != null && request.toolChoice().forcesTool();
        if (r == null && policy.defaultOn() && !forced) {
            adapted = new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null, null);
        } else if (r != null && r.mode() == ReasoningConfig.Mode.ENABLED && !policy.budgetAllowed()) {
            String effort = ReasoningBudgets.effortOf(r);
            if (effort == null || effort.equals("minimal")) effort = "low";
            adapted = new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null, effort);
        }
        return adapted == r ? request : request.toBuilder().reasoning(adapted).build();
    }
}
