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

import java.util.List;

/**
 * docs/contract.md §2.3: opus-4.7, opus-4.8 and sonnet-5 refuse {@code enabled}+{@code budget_tokens} and take
 * {@code adaptive} with {@code output_config.effort}; sonnet-5 thinks unless told not to. And when thinking is not
 * sent although it would be: vendor A refuses thinking with a forced tool, and on a tool loop whose turn does not
 * open with its own thinking ({@link ToolLoopTurn}: another vendor answered the tool call, and the gateway never
 * replays another vendor's reasoning to vendor A). The gateway's default thinking is then left out silently, as
 * it was the gateway's choice; the caller's own is left out with a warning (docs/translation.md, "Thinking on a
 * tool loop another vendor began").
 */
public final class ThinkingRules {
    static final String NOT_SENT = "thinking not sent for this request: another model answered the tool calls of the "
            + "turn it continues, and vendor A accepts thinking in a tool loop only when its own thinking began the turn";

    private ThinkingRules() {
    }

    /**
     * The model's rules for a messages body already checked by {@link MessagesRequestBounds}, without another
     * vendor's thinking ({@link ForeignThinking}): a budget refused by the newer models is a 400; a model that
     * thinks by default gets adaptive thinking when the body does not mention thinking, unless {@code tool_choice}
     * forces a tool or the tool loop's turn does not open with vendor A's thinking; thinking the caller asked for on
     * such a turn is removed. Returns the warnings for the caller.
     */
    public static List<String> apply(ObjectNode body, ModelEntry entry) {
        ThinkingPolicy policy = entry.thinking();
        ObjectNode thinking = Fields.optionalObject(body, "thinking", "thinking");
        if (thinking == null) {
            String choice = body.path("tool_choice").path("type").asText();
            boolean forced = choice.equals("any") || choice.equals("tool");
            if (policy.defaultOn() && !forced && !ToolLoopTurn.opensWithoutThinking(body.path("messages"))) {
                body.putObject("thinking").put("type", "adaptive");
            }
            return List.of();
        }
        String type = thinking.path("type").asText();
        if ("enabled".equals(type) && !policy.budgetAllowed()) {
            throw GatewayException.invalid("thinking.type", "Model '" + entry.id() + "' does not support 'thinking.type': "
                    + "'enabled' with 'budget_tokens'. Use {\"type\": \"adaptive\"} and set the reasoning effort with "
                    + "output_config.effort (low, medium, high, xhigh or max).");
        }
        if (!"disabled".equals(type) && ToolLoopTurn.opensWithoutThinking(body.path("messages"))) {
            body.remove("thinking");
            return List.of("thinking: " + NOT_SENT);
        }
        return List.of();
    }

    /** A translated request to vendor A as {@link #adapt} leaves it, with the warnings for the caller. */
    public record Adapted(CanonicalRequest request, List<String> warnings) { }

    /**
     * The same rules for a translated request to vendor A: a chat caller cannot say "adaptive", so a budget (or
     * effort word) becomes adaptive thinking with the matching effort on models that refuse budgets; models that
     * think by default get adaptive thinking when nothing was asked, no tool is forced and the tool loop's turn
     * opens with vendor A's thinking; reasoning the caller asked for on a turn that does not is left out (unless a
     * tool is forced too: the encoder refuses that combination whatever the turn, as validation does for messages).
     */
    public static Adapted adapt(CanonicalRequest request, ModelEntry entry) {
        if (entry.vendor() != Vendor.ANTHROPIC) return new Adapted(request, List.of());
        ThinkingPolicy policy = entry.thinking();
        ReasoningConfig r = request.reasoning();
        boolean forced = request.toolChoice() != null && request.toolChoice().forcesTool();
        boolean unopened = ToolLoopTurn.opensWithoutThinking(request.messages());
        ReasoningConfig adapted = r;
        List<String> warnings = List.of();
        if (r == null) {
            if (policy.defaultOn() && !forced && !unopened) adapted = new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null, null);
        } else if (r.isOn() && unopened && !forced) {
            adapted = null;
            warnings = List.of("reasoning: " + NOT_SENT);
        } else if (r.mode() == ReasoningConfig.Mode.ENABLED && !policy.budgetAllowed()) {
            String effort = ReasoningBudgets.effortOf(r);
            if (effort == null || effort.equals("minimal")) effort = "low";
            adapted = new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null, effort);
        }
        return new Adapted(adapted == r ? request : request.toBuilder().reasoning(adapted).build(), warnings);
    }
}
