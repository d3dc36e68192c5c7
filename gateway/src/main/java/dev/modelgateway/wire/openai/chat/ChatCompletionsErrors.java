package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.VendorErrorKinds;

/** OpenAI-shaped error bodies {@code {"error":{message,type,param,code}}} (OpenAI and DashScope). */
public final class ChatCompletionsErrors {
    private ChatCompletionsErrors() { }

    public static GatewayException fromBody(int status, String body) {
        JsonNode n = ToolArguments.parseOrNull(body);
        if (n == null || !n.path("error").isObject()) return VendorErrorKinds.of(status, body, null, null, null);
        return fromError(status, n.path("error"));
    }

    /** @param status 0 for an in-stream error, whose status is inferred from its type/code */
    public static GatewayException fromError(int status, JsonNode error) {
        String code = error.path("code").isNull() ? null : error.path("code").asText(null);
        String type = error.path("type").asText(null);
        int s = status > 0 ? status : inferStatus(type, code);
        return VendorErrorKinds.of(s, error.path("message").asText("upstream error"),
                error.path("param").isNull() ? null : error.path("param").asText(null), code != null ? code : type, null);
    }

    private static int inferStatus(String type, String code) {
        String t = type == null ? "" : type;
        String c = code == null ? "" : code;
        if (t.contains("data_inspection") || c.contains("data_inspection") || t.equals("invalid_request_error")) return 400;
        if (t.contains("rate_limit") || c.contains("rate_limit") || c.equals("insufficient_quota")) return 429;
        return 500;
    }
}
