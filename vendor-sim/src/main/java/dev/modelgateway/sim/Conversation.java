package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * What the answer planner needs to know about a request, extracted by each vendor adapter from its own wire
 * shape. {@code toolResult} is non-null only when the last user turn is a tool result.
 */
record Conversation(String model, String lastUserText, String toolResult, List<Tool> tools, ToolChoice toolChoice,
                    Integer maxTokens, int imageCount, boolean thinking, OutputFormat format) {

    record Tool(String name, JsonNode schema) {
    }

    enum ChoiceMode { AUTO, NONE, REQUIRED, NAMED }

    record ToolChoice(ChoiceMode mode, String name) {
        static final ToolChoice AUTO = new ToolChoice(ChoiceMode.AUTO, null);
        static final ToolChoice NONE = new ToolChoice(ChoiceMode.NONE, null);
        static final ToolChoice REQUIRED = new ToolChoice(ChoiceMode.REQUIRED, null);
    }

    /** Structured output request; {@code schema == null} means "any JSON object". */
    record OutputFormat(JsonNode schema) {
    }
}
