package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.wire.NativeFormat;
import dev.modelgateway.wire.StreamTap;

import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The messages protocol to vendor A, unchanged but for the removal of thinking blocks vendor A did not sign
 * ({@link ForeignThinking}) and the thinking rules ({@link ThinkingRules}: docs/contract.md §2.3, and when thinking
 * is not sent).
 */
public final class MessagesNative implements NativeFormat {
    @Override
    public String path() {
        return "/v1/messages";
    }

    @Override
    public void applyModelRules(ObjectNode body, ModelEntry model) {
        ForeignThinking.strip(body);
    }

    /**
     * The thinking rules run here, once another vendor's thinking is gone (they read what vendor A will get), because
     * one of them takes back thinking the caller asked for and the caller is told so in {@code x-platform-warnings}.
     */
    @Override
    public List<String> adaptToDialect(ObjectNode body, ModelEntry model) {
        return ThinkingRules.apply(body, model);
    }

    @Override
    public StreamTap streamTap(ObjectNode body, String traceId, Consumer<String> answerIds) {
        return new AnthropicNativeTap(traceId, answerIds);
    }

    @Override
    public Set<String> answerFields() {
        return Set.of("usage", "container");
    }

    /** The code execution container the answer names: the caller may reuse it ({@link AccountObjects}). */
    @Override
    public List<String> answerIds(JsonNode answer) {
        String container = AccountObjects.answeredContainer(answer);
        return container == null ? List.of() : List.of(container);
    }

    @Override
    public Usage usage(JsonNode answer) {
        return AnthropicUsage.toCanonical(answer.get("usage"));
    }
}
