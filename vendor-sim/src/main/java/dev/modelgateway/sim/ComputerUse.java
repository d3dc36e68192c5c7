package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Vendor A's computer use tool (docs.claude.com, "Computer use tool"): a tool of type {@code computer_YYYYMMDD}, named
 * {@code computer}, that takes effect only with its beta {@code computer-use-YYYY-MM-DD}: in the {@code anthropic-beta}
 * header on vendor A's API and Vertex AI, in the body's {@code anthropic_beta} array on Bedrock's InvokeModel (Bedrock
 * User Guide, "Anthropic Claude Messages API"). Without it the doubles refuse the tool (400); with it the tool is one
 * the simulator can call, its arguments faked from {@link #SCHEMA} or given by the {@code args=} directive.
 */
final class ComputerUse {
    private static final Pattern TYPE = Pattern.compile("computer_(\\d{4})(\\d{2})(\\d{2})");
    /** The input the simulator fakes for a call it is not told the arguments of: a screenshot, the usual first action. */
    static final JsonNode SCHEMA = AnthropicApi.parseJson(
            "{\"type\":\"object\",\"properties\":{\"action\":{\"type\":\"string\",\"enum\":[\"screenshot\"]}},\"required\":[\"action\"]}");

    private ComputerUse() {
    }

    static boolean isComputerTool(JsonNode tool) {
        return TYPE.matcher(String.valueOf(Json.text(tool, "type"))).matches();
    }

    /** The refusal of a computer tool whose beta is not among {@code betas} (comma-separated); null when none is missing. */
    static String missingBeta(JsonNode body, String betas) {
        JsonNode tools = body.path("tools");
        for (int i = 0; i < tools.size(); i++) {
            Matcher m = TYPE.matcher(String.valueOf(Json.text(tools.get(i), "type")));
            if (!m.matches()) continue;
            String beta = "computer-use-" + m.group(1) + "-" + m.group(2) + "-" + m.group(3);
            if (betas == null || !(", " + betas + ",").replace(" ", "").contains("," + beta + ",")) {
                return "tools." + i + ": the tool type '" + m.group() + "' requires the beta '" + beta + "'";
            }
        }
        return null;
    }

    /** The body's {@code anthropic_beta} array (Bedrock's place for the betas) as a comma-separated list. */
    static String bodyBetas(JsonNode body) {
        StringBuilder out = new StringBuilder();
        for (JsonNode b : body.path("anthropic_beta")) out.append(out.isEmpty() ? "" : ",").append(b.asText());
        return out.toString();
    }
}
