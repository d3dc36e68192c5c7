package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.json.Fields;
import dev.modelgateway.wire.NativeFormat;
import dev.modelgateway.wire.StreamTap;

import java.util.List;
import java.util.function.Consumer;

/** Chat completions to vendor B and vendor D's compatible mode, unchanged. */
public final class ChatNative implements NativeFormat {
    @Override
    public String path() {
        return "/chat/completions";
    }

    @Override
    public void applyModelRules(ObjectNode body, ModelEntry model) {
        ChatSamplingRules.check(body, model);
    }

    /**
     * Vendor D's compatible mode ignores {@code reasoning_effort}: it becomes {@code enable_thinking} and
     * {@code thinking_budget} by the same mapping as a translated call ({@link QwenThinking}). A caller's own
     * {@code enable_thinking}/{@code thinking_budget} without an effort pass unchanged.
     */
    @Override
    public List<String> adaptToDialect(ObjectNode body, ModelEntry model) {
        if (model.vendor() != Vendor.DASHSCOPE || !body.hasNonNull("reasoning_effort")) return List.of();
        ReasoningConfig rc = ChatRequestDecoder.decodeReasoning(body);
        body.remove(List.of("reasoning_effort", "enable_thinking", "thinking_budget"));
        JsonNode format = body.get("response_format");
        boolean structured = format != null && format.isObject() && !"text".equals(format.path("type").asText());
        String warning = QwenThinking.apply(rc, structured, body);
        return warning == null ? List.of() : List.of(warning);
    }

    /** The gateway always asks for the usage chunk (the ledger needs it); the tap hides it unless the caller asked. */
    @Override
    public StreamTap streamTap(ObjectNode body, String traceId, Consumer<String> answerIds) {
        ObjectNode so = Fields.optionalObject(body, "stream_options", "stream_options");
        if (so == null) so = body.putObject("stream_options");
        boolean callerWantsUsage = so.path("include_usage").asBoolean(false);
        so.put("include_usage", true);
        return new ChatNativeTap(callerWantsUsage);
    }

    @Override
    public Usage usage(JsonNode answer) {
        return ChatUsage.toCanonical(answer.get("usage"));
    }
}
