package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.error.GatewayException;

import java.util.List;

/**
 * The conversation as Converse takes it: {@code user} and {@code assistant} turns that alternate and open with a user
 * turn (Converse refuses "A conversation must alternate between user and assistant roles"), so consecutive turns of
 * one role are merged in order and an opening assistant turn gets a placeholder user turn before it.
 *
 * <p>A system entry in the middle of the conversation has no Converse form: Converse has only the top-level
 * {@code system}. Hoisting it there changes the prompt's prefix, so every prompt cache written before it is lost
 * (LiteLLM's move of Claude Code to Converse dropped warm cache hits from ~90% to 25–45%, issue 31). When the
 * deployment declares {@code mid_conversation_system}, the entry stays where it was, as text of a user turn; when it
 * does not, the request is refused naming the message, rather than silently moved.
 */
final class ConverseTurns {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ConverseTurns() {
    }

    static ArrayNode of(List<Message> messages, boolean midConversationSystem, ConverseBlocks blocks) {
        ArrayNode out = F.arrayNode();
        int last = messages.size() - 1;
        for (int i = 0; i <= last; i++) {
            Message m = messages.get(i);
            String p = "messages[" + i + "]";
            if (m.role() == Role.SYSTEM && !midConversationSystem) {
                throw GatewayException.invalid(p, "a system entry in the middle of the conversation is not supported by "
                        + "this deployment (it declares no mid_conversation_system); put it in the leading system prompt");
            }
            String role = m.role() == Role.ASSISTANT ? "assistant" : "user";
            ArrayNode content = F.arrayNode();
            for (int j = 0; j < m.content().size(); j++) {
                ContentBlock b = m.content().get(j);
                if (m.role() == Role.SYSTEM && !(b instanceof ContentBlock.Text)) continue;
                blocks.add(b, p + ".content[" + j + "]", content);
            }
            if (!hasContent(content)) {
                // a final assistant turn with nothing in it prefills nothing; elsewhere Converse wants content
                if (i == last && role.equals("assistant")) continue;
                content.insert(0, F.objectNode().put("text", "..."));
            }
            JsonNode previous = out.isEmpty() ? null : out.get(out.size() - 1);
            if (previous != null && role.equals(previous.path("role").asText())) {
                ((ArrayNode) previous.get("content")).addAll(content);
                continue;
            }
            if (previous == null && role.equals("assistant")) {
                out.addObject().put("role", "user").putArray("content").addObject().put("text", "...");
            }
            ObjectNode turn = out.addObject().put("role", role);
            turn.set("content", content);
        }
        return out;
    }

    /** Anything but cache points: a turn of cache points alone is empty. */
    private static boolean hasContent(ArrayNode content) {
        for (JsonNode b : content) if (!b.has("cachePoint")) return true;
        return false;
    }
}
