package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ReasoningBudgets;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.ResponseFormat;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.error.GatewayException;

import java.util.List;
import java.util.Map;

/**
 * Canonical request → Converse request body (API reference, "Converse"): {@code system}, {@code messages},
 * {@code inferenceConfig}, {@code toolConfig}, {@code outputConfig} and, for what Converse has no field for (vendor A's
 * thinking, {@code top_k}), {@code additionalModelRequestFields}. One instance per request.
 */
final class ConverseRequestEncoder {
    /** maxTokens when thinking with a budget and the caller gave none: the budget must fit below it (as AnthropicCodec). */
    static final int DEFAULT_MAX_TOKENS = 4096;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final Capabilities capabilities;
    private final Warnings warnings = new Warnings();
    private final ConverseBlocks blocks;

    ConverseRequestEncoder(Capabilities capabilities) {
        this.capabilities = capabilities;
        this.blocks = new ConverseBlocks(capabilities.promptCache(), warnings);
    }

    List<String> warnings() {
        return warnings.list();
    }

    ObjectNode encode(CanonicalRequest r) {
        ObjectNode body = F.objectNode();
        ArrayNode system = F.arrayNode();
        for (int i = 0; i < r.system().size(); i++) blocks.add(r.system().get(i), "system[" + i + "]", system);
        if (!system.isEmpty()) body.set("system", system);
        body.set("messages", ConverseTurns.of(r.messages(), capabilities.midConversationSystem(), blocks));

        ObjectNode additional = F.objectNode();
        ObjectNode output = F.objectNode();
        Integer budget = thinking(r, additional, output);
        boolean thinking = additional.has("thinking") && !"disabled".equals(additional.path("thinking").path("type").asText());
        ObjectNode inference = inference(r, budget, thinking);
        if (!inference.isEmpty()) body.set("inferenceConfig", inference);
        ConverseTools.encode(r, thinking, blocks, warnings, body);
        if (r.topK() != null) {
            if (thinking) warnings.add("top_k", "dropped: not allowed with thinking");
            else additional.put("top_k", r.topK());
        }
        if (!additional.isEmpty()) body.set("additionalModelRequestFields", additional);
        textFormat(r.responseFormat(), output);
        if (!output.isEmpty()) body.set("outputConfig", output);
        if (r.user() != null) warnings.add("user", "dropped: no Converse equivalent");
        unmapped(r.unmapped());
        return body;
    }

    private ObjectNode inference(CanonicalRequest r, Integer budget, boolean thinking) {
        ObjectNode c = F.objectNode();
        Integer ceiling = capabilities.maxOutputTokens();
        if (r.maxTokens() != null && ceiling != null && r.maxTokens() > ceiling) {
            throw GatewayException.invalid("max_tokens", r.maxTokens() + " is above this model's output limit of " + ceiling + " tokens");
        }
        Integer max = r.maxTokens() != null ? r.maxTokens() : budget != null ? DEFAULT_MAX_TOKENS + budget : null;
        if (ceiling != null && max != null) max = Math.min(max, ceiling);
        if (max != null) c.put("maxTokens", max);
        if (r.temperature() != null) {
            // vendor A's rule once its thinking is on: only the default temperature (AnthropicRequestEncoder does the same)
            if (thinking && r.temperature() != 1.0) warnings.add("temperature", "dropped: the model requires the default temperature with thinking");
            else c.put("temperature", r.temperature());
        }
        if (r.topP() != null) c.put("topP", r.topP());
        ArrayNode stops = F.arrayNode();
        for (String s : r.stop()) {
            if (s.isBlank()) warnings.add("stop", "dropped a whitespace-only stop sequence");
            else stops.add(s);
        }
        if (!stops.isEmpty()) c.set("stopSequences", stops);
        return c;
    }

    /**
     * Vendor A's thinking in {@code additionalModelRequestFields}, in a mode the deployment declares: a budget
     * ({@code enabled}) or {@code adaptive} with Converse's own {@code outputConfig.effort}. A mode it does not declare
     * is refused, never rewritten into another (adaptive turned into a budget breaks the newest vendor A models), as
     * on the deployment's Invoke path (docs/clouds.md, "Capabilities"). Returns the budget sent, or null.
     */
    private Integer thinking(CanonicalRequest r, ObjectNode additional, ObjectNode output) {
        ReasoningConfig rc = r.reasoning();
        if (rc == null) return null;
        if (rc.isOn() && ToolLoopThinking.opensWithoutThinking(r.messages())) {
            warnings.add("reasoning", "thinking not sent for this request: another model answered the tool calls of the turn "
                    + "it continues, and vendor A accepts thinking in a tool loop only when its own thinking began the turn");
            return null;
        }
        var modes = capabilities.thinking();
        String mode = switch (rc.mode()) {
            case ENABLED -> "enabled";
            case ADAPTIVE -> "adaptive";
            case DISABLED -> null;
        };
        if (mode == null) {
            if (!modes.isEmpty()) additional.putObject("thinking").put("type", "disabled");
            return null;
        }
        if (!modes.contains(mode)) {
            throw GatewayException.invalid("thinking.type", "'" + mode + "' thinking is not available on this model's deployment"
                    + " (it declares " + (modes.isEmpty() ? "no thinking" : modes) + ")");
        }
        if (rc.mode() == ReasoningConfig.Mode.ENABLED) return budget(r, rc, additional);
        additional.putObject("thinking").put("type", "adaptive");
        // OutputConfig.effort: low, medium, high, xhigh or max (API reference, "OutputConfig")
        if (rc.effort() != null) output.put("effort", rc.effort());
        return null;
    }

    private Integer budget(CanonicalRequest r, ReasoningConfig rc, ObjectNode additional) {
        int budget = Math.max(ReasoningBudgets.ANTHROPIC_MIN_BUDGET, ReasoningBudgets.budgetOf(rc));
        // the caller's max_tokens, else the model's declared ceiling: the budget must fit below what will be sent
        Integer max = r.maxTokens() != null ? r.maxTokens() : capabilities.maxOutputTokens();
        if (max != null && max <= ReasoningBudgets.ANTHROPIC_MIN_BUDGET) {
            warnings.add("reasoning", "thinking disabled: max_tokens " + max + " leaves no room for the minimum budget of 1024");
            return null;
        }
        if (max != null && budget >= max) {
            warnings.add("reasoning", "thinking budget lowered from " + budget + " to " + (max - 1) + " to stay below max_tokens");
            budget = max - 1;
        }
        additional.putObject("thinking").put("type", "enabled").put("budget_tokens", budget);
        return budget;
    }

    /**
     * Structured output through Converse's own {@code outputConfig.textFormat} (type {@code json_schema}, the schema
     * as JSON text); a JSON object without a schema is the schema {@code {"type":"object"}}.
     */
    private static void textFormat(ResponseFormat format, ObjectNode output) {
        if (format == null) return;
        ObjectNode definition = F.objectNode();
        switch (format) {
            case ResponseFormat.JsonObject ignored -> definition.put("schema", "{\"type\":\"object\"}").put("name", "response");
            case ResponseFormat.JsonSchema js -> {
                if (js.schema() == null) throw GatewayException.invalid("response_format.json_schema.schema", "a schema is required");
                definition.put("schema", ToolArguments.toText(js.schema())).put("name", js.name() != null ? js.name() : "response");
                if (js.description() != null) definition.put("description", js.description());
            }
        }
        ObjectNode tf = output.putObject("textFormat").put("type", "json_schema");
        tf.putObject("structure").set("jsonSchema", definition);
    }

    private void unmapped(UnmappedFields u) {
        if (u == null) return;
        for (Map.Entry<String, JsonNode> e : u.entries()) {
            String k = e.getKey();
            if (u.protocol().equals(UnmappedFields.CHAT)) {
                if (k.equals("n") && e.getValue().asInt(1) != 1) throw GatewayException.invalid("n", "only n=1 is supported by this model");
                if (k.equals("n")) continue;
                if ((k.equals("modalities") && e.getValue().toString().contains("audio")) || k.equals("audio")) {
                    throw GatewayException.invalid(k, "'" + k + "' is not supported by this model");
                }
                if (k.equals("modalities")) continue;
            }
            warnings.add(k, "dropped: no Converse equivalent");
        }
    }

    /** Every tool call and result in the history: Converse refuses them without a {@code toolConfig}. */
    static boolean hasToolHistory(List<Message> messages) {
        for (Message m : messages) {
            for (ContentBlock b : m.content()) if (b instanceof ContentBlock.ToolUse || b instanceof ContentBlock.ToolResult) return true;
        }
        return false;
    }
}
