package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ToolChoice;
import dev.modelgateway.canonical.ToolDefinition;
import dev.modelgateway.error.GatewayException;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * {@code toolConfig} (API reference, "ToolConfiguration"): each function tool as a {@code toolSpec} with its JSON
 * schema under {@code inputSchema.json}, cache points after marked tools, and {@code toolChoice} {@code auto},
 * {@code any} or {@code tool}. Converse has no "none": the tools are left out instead, unless the history holds tool
 * calls, which Converse refuses without a {@code toolConfig} ("The toolConfig field must be defined when using
 * toolUse and toolResult content blocks"); then they stay, and the caller is warned that none is not enforced.
 */
final class ConverseTools {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ConverseTools() {
    }

    static void encode(CanonicalRequest r, boolean thinking, ConverseBlocks blocks, Warnings warnings, ObjectNode body) {
        if (!r.vendorTools().isEmpty()) {
            // Converse takes only tools with a JSON schema (API reference, "Tool"): a vendor's own tools, vendor A's
            // computer use among them, exist only in its native body, which Bedrock takes through InvokeModel
            String type = r.vendorTools().getFirst().raw().path("type").asText();
            throw GatewayException.invalid("tools", "tools: the tool type '" + type + "' is not available through Bedrock's"
                    + " Converse API, which takes only tools with an input schema; vendor A's own tools (computer use among"
                    + " them) need its native messages body: a bedrock deployment with api: invoke, or vertex");
        }
        boolean history = ConverseRequestEncoder.hasToolHistory(r.messages());
        ToolChoice choice = r.toolChoice();
        if (choice != null && choice.mode() == ToolChoice.Mode.NONE) {
            if (!history) {
                if (!r.tools().isEmpty()) warnings.add("tool_choice", "'none': the tools were left out (Converse has no 'none')");
                return;
            }
            warnings.add("tool_choice", "'none' is not enforced: Converse has no 'none' and needs the tools the history calls");
            choice = null;
        }
        if (choice != null && choice.forcesTool() && thinking) {
            throw GatewayException.invalid("tool_choice", "forcing a tool is not compatible with extended thinking on this model");
        }
        ArrayNode tools = F.arrayNode();
        for (ToolDefinition t : r.tools()) {
            ObjectNode spec = tools.addObject().putObject("toolSpec").put("name", t.name());
            if (t.description() != null) spec.put("description", t.description());
            spec.putObject("inputSchema").set("json", t.schema() != null ? t.schema() : emptySchema());
            if (t.strict() != null) spec.put("strict", t.strict());
            blocks.cachePoint(t.cache(), tools);
        }
        if (tools.isEmpty() && history) {
            for (String name : usedTools(r)) {
                tools.addObject().putObject("toolSpec").put("name", name).putObject("inputSchema").set("json", emptySchema());
            }
            if (!tools.isEmpty()) warnings.add("tools", "declared the tools the history uses because the request had none");
        }
        if (tools.isEmpty()) return;
        ObjectNode config = body.putObject("toolConfig");
        config.set("tools", tools);
        if (choice != null) {
            ObjectNode tc = config.putObject("toolChoice");
            switch (choice.mode()) {
                case AUTO -> tc.putObject("auto");
                case REQUIRED -> tc.putObject("any");
                case NAMED -> tc.putObject("tool").put("name", choice.name());
            }
        }
        if (Boolean.FALSE.equals(r.parallelToolCalls())) warnings.add("parallel_tool_calls", "dropped: Converse has no switch for it");
    }

    private static Set<String> usedTools(CanonicalRequest r) {
        Set<String> used = new LinkedHashSet<>();
        for (Message m : r.messages()) for (ContentBlock b : m.content()) if (b instanceof ContentBlock.ToolUse u) used.add(u.name());
        return used;
    }

    private static ObjectNode emptySchema() {
        ObjectNode s = F.objectNode().put("type", "object");
        s.putObject("properties");
        return s;
    }
}
