package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolArguments;

import java.util.ArrayList;
import java.util.List;

/** chat.completion → canonical (first choice). Order: reasoning, text, tool calls — text next to tool calls is kept. */
public final class ChatCompletionsResponseDecoder {
    private ChatCompletionsResponseDecoder() { }

    public static CanonicalResponse decode(JsonNode body) {
        JsonNode choice = body.path("choices").path(0);
        JsonNode msg = choice.path("message");
        List<ContentBlock> content = new ArrayList<>();
        String reasoning = msg.path("reasoning_content").asText("");
        if (!reasoning.isEmpty()) content.add(new ContentBlock.Thinking(reasoning, null, SignatureOrigin.NONE));
        JsonNode c = msg.get("content");
        if (c != null && c.isTextual() && !c.asText().isEmpty()) content.add(new ContentBlock.Text(c.asText()));
        if (c != null && c.isArray()) {
            for (JsonNode part : c) {
                String t = part.path("text").asText(part.path("refusal").asText(""));
                if (!t.isEmpty()) content.add(new ContentBlock.Text(t));
            }
        }
        String refusal = msg.path("refusal").asText("");
        if (!refusal.isEmpty()) content.add(new ContentBlock.Text(refusal));
        boolean calls = false;
        for (JsonNode tc : msg.path("tool_calls")) {
            calls = true;
            JsonNode fn = tc.path("function");
            JsonNode args = fn.get("arguments");
            content.add(new ContentBlock.ToolUse(tc.path("id").asText(), fn.path("name").asText(),
                    args == null || args.isNull() ? "" : args.isTextual() ? args.asText() : ToolArguments.toText(args),
                    tc.path("extra_content").path("google").path("thought_signature").asText(null), null));
        }
        return new CanonicalResponse(body.path("id").asText(null), body.path("model").asText(null), content,
                ChatFinishReasons.toCanonical(choice.path("finish_reason").asText(null), calls, !refusal.isEmpty()), null,
                ChatUsage.toCanonical(body.get("usage")));
    }
}
