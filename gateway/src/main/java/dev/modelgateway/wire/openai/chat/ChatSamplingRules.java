package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.error.GatewayException;

import java.util.List;

/** docs/contract.md §2.5: series 6 models take sampling and log-probability parameters only on the Responses API. */
public final class ChatSamplingRules {
    static final List<String> RESPONSES_ONLY_PARAMS = List.of("temperature", "top_p", "logprobs", "top_logprobs");

    private ChatSamplingRules() {
    }

    public static void check(ObjectNode chatBody, ModelEntry entry) {
        if (entry.samplingParams()) return;
        for (String p : RESPONSES_ONLY_PARAMS) {
            JsonNode v = chatBody.get(p);
            if (v != null && !v.isNull() && !(p.equals("logprobs") && v.isBoolean() && !v.booleanValue())) {
                throw GatewayException.invalid(p, "'" + p + "' is not supported by " + entry.id()
                        + " on chat completions. Series 6 models take sampling and log-probability parameters "
                        + "only through the Responses API (POST /api/v1/responses); remove '" + p + "' or use that API.");
            }
        }
    }
}
