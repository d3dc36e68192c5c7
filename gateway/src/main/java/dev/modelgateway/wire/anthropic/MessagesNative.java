package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.wire.NativeFormat;
import dev.modelgateway.wire.StreamTap;

import java.util.function.Consumer;

/**
 * The messages protocol to vendor A, unchanged but for the thinking rules of docs/contract.md §2.3 and the
 * removal of thinking blocks vendor A did not sign ({@link ForeignThinking}).
 */
public final class MessagesNative implements NativeFormat {
    @Override
    public String path() {
        return "/v1/messages";
    }

    @Override
    public void applyModelRules(ObjectNode body, ModelEntry model) {
        ThinkingRules.apply(body, model);
        ForeignThinking.strip(body);
    }

    @Override
    public StreamTap streamTap(ObjectNode body, String traceId, Consumer<String> answerIds) {
        return new AnthropicNativeTap(traceId);
    }

    @Override
    public Usage usage(JsonNode answer) {
        return AnthropicUsage.toCanonical(answer.get("usage"));
    }
}
