package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;

import java.util.List;

/**
 * Vendor A's beta features a caller may switch on (docs/configuration.md, "Vendor A betas"): each beta of the
 * {@code anthropic-beta} header must be in the operator's allow-list ({@code vendors.anthropic.allowed_betas}), and
 * the features of the body that vendor A bills beyond tokens need their beta in it too, because a beta allowed for
 * another reason (programmatic tool calling, in {@code advanced-tool-use-…}) would otherwise turn them on: the code
 * execution tool (billed per container-hour) and the MCP connector. The price book prices neither.
 */
public final class BetaFeatures {
    public static final String HEADER = "anthropic-beta";
    private static final String CODE_EXECUTION = "code-execution-";
    private static final String MCP_CLIENT = "mcp-client-";

    private BetaFeatures() {
    }

    /** The caller's {@code anthropic-beta} (null when absent), each of its betas allowed; else a 400 naming the first that is not. */
    public static String allowed(String header, List<String> allowed) {
        if (header == null) return null;
        for (String beta : header.split(",")) {
            String b = beta.trim();
            if (!b.isEmpty() && !allowed.contains(b)) {
                throw GatewayException.invalid(HEADER, "anthropic-beta: the beta '" + b + "' is not enabled on this gateway:"
                        + " its use is not priced. The operator enables betas in vendors.anthropic.allowed_betas.")
                        .withCode("beta_not_allowed");
            }
        }
        return header;
    }

    /** Refuses the body's features billed beyond tokens whose beta the operator did not allow, naming the field. */
    public static void checkBody(ObjectNode body, List<String> allowed) {
        JsonNode tools = body.get("tools");
        if (tools != null && tools.isArray()) {
            for (int i = 0; i < tools.size(); i++) {
                String type = tools.get(i).path("type").asText("");
                if (type.startsWith("code_execution")) need(allowed, CODE_EXECUTION, "tools[" + i + "].type", "the code execution tool");
                if (type.startsWith("mcp_toolset")) need(allowed, MCP_CLIENT, "tools[" + i + "].type", "the MCP connector");
            }
        }
        JsonNode mcp = body.get("mcp_servers");
        if (mcp != null && !mcp.isNull() && !mcp.isEmpty()) need(allowed, MCP_CLIENT, "mcp_servers", "the MCP connector");
    }

    private static void need(List<String> allowed, String betaPrefix, String field, String feature) {
        if (allowed.stream().noneMatch(b -> b.startsWith(betaPrefix))) {
            throw GatewayException.invalid(field, field + ": " + feature + " is not enabled on this gateway: its use is not"
                    + " priced. The operator enables it with its beta (" + betaPrefix + "…) in vendors.anthropic.allowed_betas.")
                    .withCode("beta_not_allowed");
        }
    }
}
