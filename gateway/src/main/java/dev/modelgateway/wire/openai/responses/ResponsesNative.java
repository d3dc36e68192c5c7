package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.wire.NativeFormat;
import dev.modelgateway.wire.StreamTap;

/** The Responses API to vendor B, unchanged (its platform rules are checked by the endpoint for every model). */
public final class ResponsesNative implements NativeFormat {
    @Override
    public String path() {
        return "/responses";
    }

    @Override
    public void applyModelRules(ObjectNode body, ModelEntry model) {
    }

    @Override
    public StreamTap streamTap(ObjectNode body, String traceId) {
        return new ResponsesNativeTap(traceId);
    }

    @Override
    public Usage usage(JsonNode answer) {
        return ResponsesUsage.toCanonical(answer.get("usage"));
    }
}
