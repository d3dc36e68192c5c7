package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.wire.SignatureEnvelope;

/**
 * Canonical response → chat.completion. Reasoning text goes to {@code reasoning_content} (the de-facto
 * extension); when any reasoning is signed or redacted, the exact blocks also go to {@code thinking_blocks}
 * so that the client can send them back and the next turn is accepted. Gemini signatures on function calls
 * ride on {@code tool_calls[].extra_content.google.thought_signature} (Gemini's own compat scheme); a Gemini
 * signature on a text part is a {@code gemini-text:} thinking block, so the text itself stays whole.
 */
final class ChatResponseEncoder {
    private ChatResponseEncoder() { }

    static ObjectNode encode(CanonicalResponse r, String publicModel, long created) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode root = f.objectNode();
        root.put("id", r.id() != null ? r.id() : "chatcmpl-gateway");
        root.put("object", "chat.completion");
        root.put("created", created);
        root.put("model", publicModel);
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode msg = choice.putObject("message");
        msg.put("role", "assistant");
        StringBuilder text = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        ArrayNode thinkingBlocks = f.arrayNode();
        boolean signed = false;
        ArrayNode calls = f.arrayNode();
        ContentBlock previous = null;
        for (ContentBlock b : r.content()) {
            boolean textSignature = SignatureEnvelope.isTextSignature(previous, b);
            previous = b;
            switch (b) {
                case ContentBlock.Text t -> text.append(t.text());
                case ContentBlock.Thinking t -> {
                    reasoning.append(t.text());
                    ObjectNode tb = thinkingBlocks.addObject().put("type", "thinking").put("thinking", t.text());
                    tb.put("signature", textSignature ? SignatureEnvelope.sealText(t.signature())
                            : SignatureEnvelope.seal(t.origin(), t.signature()));
                    signed |= t.origin() != SignatureOrigin.NONE && t.signature() != null;
                }
                case ContentBlock.RedactedThinking rt -> {
                    thinkingBlocks.addObject().put("type", "redacted_thinking").put("data", rt.data());
                    signed = true;
                }
                case ContentBlock.ToolUse u -> calls.add(toolCall(u));
                case ContentBlock.Media m -> { } // generated media has no chat slot
                case ContentBlock.ToolResult ignored -> { }
                case ContentBlock.VendorBlock ignored -> { } // server-tool artefacts: no chat equivalent
            }
        }
        // OpenAI sends null, never "", when there is no text (tool-call-only turns).
        if (text.isEmpty()) msg.putNull("content"); else msg.put("content", text.toString());
        msg.putNull("refusal");
        if (!reasoning.isEmpty()) msg.put("reasoning_content", reasoning.toString());
        if (signed) msg.set("thinking_blocks", thinkingBlocks);
        if (!calls.isEmpty()) msg.set("tool_calls", calls);
        choice.put("finish_reason", ChatFinishReasons.toChat(r.stopReason(), !calls.isEmpty()));
        choice.putNull("logprobs");
        root.set("usage", ChatUsage.toChat(r.usage()));
        return root;
    }

    static ObjectNode toolCall(ContentBlock.ToolUse u) {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("id", u.id());
        c.put("type", "function");
        c.putObject("function").put("name", u.name()).put("arguments", u.arguments() == null ? "" : u.arguments());
        if (u.thoughtSignature() != null) {
            c.putObject("extra_content").putObject("google").put("thought_signature", u.thoughtSignature());
        }
        return c;
    }
}
