package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Anthropic's server-side web search ({@code web_search_20250305}): one {@code server_tool_use} block searching
 * for the last user text and its {@code web_search_tool_result} with two deterministic results, placed before
 * the answer text; usage counts {@code server_tool_use.web_search_requests}.
 */
final class WebSearch {
    static final String TOOL_TYPE_PREFIX = "web_search_";

    private WebSearch() {
    }

    static String toolUseId(String messageId) {
        return "srvtoolu_" + messageId.substring(messageId.lastIndexOf('_') + 1);
    }

    static ObjectNode toolUse(String id, String query) {
        ObjectNode b = Json.obj().put("type", "server_tool_use").put("id", id).put("name", "web_search");
        b.putObject("input").put("query", query);
        return b;
    }

    static ObjectNode result(String toolUseId, String query) {
        ObjectNode b = Json.obj().put("type", "web_search_tool_result").put("tool_use_id", toolUseId);
        ArrayNode content = b.putArray("content");
        for (int i = 1; i <= 2; i++) {
            content.addObject().put("type", "web_search_result").put("url", "https://example.com/search/" + i)
                    .put("title", "Result " + i + " for " + query)
                    .put("encrypted_content", Signatures.redact(query + "#" + i)).put("page_age", "April 1, 2026");
        }
        return b;
    }

    static void count(ObjectNode usage) {
        usage.putObject("server_tool_use").put("web_search_requests", 1);
    }
}
