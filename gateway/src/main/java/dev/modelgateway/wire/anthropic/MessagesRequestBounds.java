package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

import java.util.List;

import static dev.modelgateway.wire.FieldBounds.given;
import static dev.modelgateway.wire.FieldBounds.integer;
import static dev.modelgateway.wire.FieldBounds.number;
import static dev.modelgateway.wire.FieldBounds.object;
import static dev.modelgateway.wire.FieldBounds.oneOf;

/**
 * What vendor A itself refuses in a messages request (its OpenAPI document: sampling ranges, the thinking and
 * {@code output_config} shapes, {@code cache_control} TTLs, thinking with a forced tool), checked once for every
 * call whichever vendor serves it, so a translated call gets the 400 the native one would.
 */
final class MessagesRequestBounds {
    static final List<String> THINKING_TYPES = List.of("enabled", "adaptive", "disabled");
    static final List<String> EFFORTS = List.of("low", "medium", "high", "xhigh", "max");
    static final List<String> CACHE_TTLS = List.of("5m", "1h");

    private MessagesRequestBounds() { }

    static void check(JsonNode body) {
        number(body, "temperature", "temperature", 0, 1);
        number(body, "top_p", "top_p", 0, 1);
        integer(body, "top_k", "top_k", 0, Long.MAX_VALUE);
        JsonNode outputConfig = object(body, "output_config", "output_config");
        oneOf(outputConfig, "effort", "output_config.effort", EFFORTS);
        boolean thinkingOn = thinking(body);
        JsonNode tc = object(body, "tool_choice", "tool_choice");
        String choice = tc == null ? "" : tc.path("type").asText();
        if (thinkingOn && (choice.equals("any") || choice.equals("tool"))) {
            throw GatewayException.invalid("tool_choice", "Thinking may not be enabled when 'tool_choice' forces tool use "
                    + "(type '" + choice + "'): use tool_choice 'auto' or 'none', or turn thinking off.");
        }
        cacheControl(body, "");
        blocks(body.get("system"), "system");
        JsonNode messages = body.get("messages");
        if (messages != null && messages.isArray()) {
            for (int i = 0; i < messages.size(); i++) blocks(messages.get(i).get("content"), "messages[" + i + "].content");
        }
        JsonNode tools = body.get("tools");
        if (tools != null && tools.isArray()) {
            for (int i = 0; i < tools.size(); i++) cacheControl(tools.get(i), "tools[" + i + "]");
        }
    }

    /** Checks {@code thinking} and says whether it asks for thinking. */
    private static boolean thinking(JsonNode body) {
        JsonNode thinking = object(body, "thinking", "thinking");
        if (thinking == null) return false;
        if (given(thinking, "type") == null) {
            throw GatewayException.invalid("thinking.type", "Missing required parameter: 'thinking.type'.");
        }
        oneOf(thinking, "type", "thinking.type", THINKING_TYPES);
        String type = thinking.get("type").asText();
        if (type.equals("enabled")) {
            if (given(thinking, "budget_tokens") == null) {
                throw GatewayException.invalid("thinking.budget_tokens", "Missing required parameter: 'thinking.budget_tokens' "
                        + "(required with thinking type 'enabled').");
            }
            // (budget_tokens ≥ max_tokens is not checked here: interleaved thinking lets the budget exceed it.)
            integer(thinking, "budget_tokens", "thinking.budget_tokens", 1024, Long.MAX_VALUE);
        }
        return !type.equals("disabled");
    }

    /** The cache markers of a string or an array of content blocks, tool results' own content included. */
    private static void blocks(JsonNode content, String path) {
        if (content == null || !content.isArray()) return;
        for (int j = 0; j < content.size(); j++) {
            JsonNode block = content.get(j);
            String p = path + "[" + j + "]";
            cacheControl(block, p);
            if ("tool_result".equals(block.path("type").asText())) blocks(block.get("content"), p + ".content");
        }
    }

    private static void cacheControl(JsonNode holder, String path) {
        String p = path.isEmpty() ? "cache_control" : path + ".cache_control";
        JsonNode cc = object(holder, "cache_control", p);
        if (cc == null) return;
        JsonNode type = cc.get("type");
        if (type == null || !type.isTextual() || !type.asText().equals("ephemeral")) {
            throw type == null || type.isTextual()
                    ? GatewayException.invalid(p + ".type", "Invalid value for '" + p + ".type': expected 'ephemeral'.")
                    : Fields.wrongType(p + ".type", "a string", type);
        }
        oneOf(cc, "ttl", p + ".ttl", CACHE_TTLS);
    }
}
