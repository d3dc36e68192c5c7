package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.wire.NativeFormat;
import dev.modelgateway.wire.StreamTap;

import java.util.function.Consumer;

/**
 * The Responses API to vendor B, unchanged (its platform rules are checked by the endpoint for every model) but for
 * the reasoning items the gateway wrote for other vendors' answers ({@link ForeignReasoning}).
 */
public final class ResponsesNative implements NativeFormat {
    @Override
    public String path() {
        return "/responses";
    }

    @Override
    public void applyModelRules(ObjectNode body, ModelEntry model) {
        ForeignReasoning.strip(body);
    }

    @Override
    public StreamTap streamTap(ObjectNode body, String traceId, Consumer<String> answerIds) {
        return new ResponsesNativeTap(traceId, answerIds);
    }

    @Override
    public Usage usage(JsonNode answer) {
        return ResponsesUsage.toCanonical(answer.get("usage"));
    }

    @Override
    public String answerId(JsonNode answer) {
        return answer.path("id").isTextual() ? answer.get("id").asText() : null;
    }
}
