package dev.modelgateway.e2e;

import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionAssistantMessageParam;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionMessageToolCall;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One chat completion through openai-java, streamed or not, with the gateway's extension fields the SDK
 * does not model (reasoning_content, thinking_blocks, tool_calls[].extra_content) collected from either
 * shape, so that a test can send the assistant turn back exactly as a careful client would.
 */
public record ChatTurn(ChatCompletion completion, String reasoning, List<JsonValue> thinkingBlocks,
                Map<Long, JsonValue> toolCallExtras) {

    public static ChatTurn run(OpenAIClient client, ChatCompletionCreateParams.Builder params, boolean stream) {
        if (!stream) {
            ChatCompletion c = client.chat().completions().create(params.build());
            var msg = c.choices().get(0).message();
            Map<String, JsonValue> extra = msg._additionalProperties();
            List<JsonValue> blocks = new ArrayList<>();
            if (extra.get("thinking_blocks") != null) {
                blocks.addAll(elements(extra.get("thinking_blocks")));
            }
            Map<Long, JsonValue> extras = new HashMap<>();
            List<ChatCompletionMessageToolCall> calls = msg.toolCalls().orElse(List.of());
            for (int i = 0; i < calls.size(); i++) {
                JsonValue e = calls.get(i).asFunction()._additionalProperties().get("extra_content");
                if (e != null) extras.put((long) i, e);
            }
            return new ChatTurn(c, text(extra.get("reasoning_content")), blocks, extras);
        }
        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        StringBuilder reasoning = new StringBuilder();
        List<JsonValue> blocks = new ArrayList<>();
        Map<Long, JsonValue> extras = new HashMap<>();
        params.streamOptions(ChatCompletionStreamOptions.builder().includeUsage(true).build());
        try (StreamResponse<ChatCompletionChunk> s = client.chat().completions().createStreaming(params.build())) {
            s.stream().forEach(chunk -> {
                acc.accumulate(chunk);
                for (var choice : chunk.choices()) {
                    Map<String, JsonValue> extra = choice.delta()._additionalProperties();
                    reasoning.append(text(extra.get("reasoning_content")));
                    if (extra.get("thinking_blocks") != null) blocks.addAll(elements(extra.get("thinking_blocks")));
                    for (var call : choice.delta().toolCalls().orElse(List.of())) {
                        JsonValue e = call._additionalProperties().get("extra_content");
                        if (e != null) extras.put(call.index(), e);
                    }
                }
            });
        }
        return new ChatTurn(acc.chatCompletion(), reasoning.toString(), blocks, extras);
    }

    private static String text(JsonValue v) {
        String s = v == null ? null : v.convert(String.class);
        return s == null ? "" : s;
    }

    @SuppressWarnings("unchecked")
    private static List<JsonValue> elements(JsonValue array) {
        List<Object> raw = array.convert(List.class);
        return raw.stream().map(JsonValue::from).toList();
    }

    /** The signature of thinking block {@code i}, as the gateway sent it. */
    public String signature(int i) {
        Map<String, Object> block = thinkingBlocks.get(i).convert(Map.class);
        return (String) block.get("signature");
    }

    public ChatCompletion.Choice choice() {
        return completion.choices().get(0);
    }

    public String content() {
        return choice().message().content().orElse("");
    }

    public List<ChatCompletionMessageFunctionToolCall> toolCalls() {
        return choice().message().toolCalls().orElse(List.of()).stream().map(ChatCompletionMessageToolCall::asFunction).toList();
    }

    /** The assistant turn to send back: content, tool calls with their extra_content, and thinking_blocks. */
    public ChatCompletionAssistantMessageParam asAssistantTurn() {
        var b = ChatCompletionAssistantMessageParam.builder();
        choice().message().content().ifPresent(b::content);
        List<ChatCompletionMessageToolCall> calls = new ArrayList<>();
        List<ChatCompletionMessageFunctionToolCall> fns = toolCalls();
        for (int i = 0; i < fns.size(); i++) {
            var f = fns.get(i).toBuilder();
            JsonValue e = toolCallExtras.get((long) i);
            if (e != null) f.putAdditionalProperty("extra_content", e);
            calls.add(ChatCompletionMessageToolCall.ofFunction(f.build()));
        }
        if (!calls.isEmpty()) b.toolCalls(calls);
        if (!reasoning.isEmpty()) b.putAdditionalProperty("reasoning_content", JsonValue.from(reasoning));
        if (!thinkingBlocks.isEmpty()) b.putAdditionalProperty("thinking_blocks", JsonValue.from(thinkingBlocks));
        return b.build();
    }
}
