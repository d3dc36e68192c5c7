package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;

/**
 * The objects vendor A keeps under the gateway's one account and resolves by id, so that any key could use another
 * key's whose id it learned (docs/security.md): code execution containers, which a request reuses by its
 * {@code container} and an answer names in its {@code container} (the stream: {@code message_start} or
 * {@code message_delta}), and Files API files. The gateway offers no Files API (501), so a file id can only be
 * one of the operator's own: a request naming one is refused.
 */
public final class AccountObjects {
    private AccountObjects() {
    }

    /** The container a request reuses ({@code "container": "id"} or {@code {"id": …}}), or null. */
    public static String requestedContainer(ObjectNode body) {
        JsonNode c = body.get("container");
        if (c == null || c.isNull()) return null;
        JsonNode id = c.isObject() ? c.get("id") : c;
        if (id == null || id.isNull()) return null;
        if (!id.isTextual()) throw Fields.wrongType("container", "a string", id);
        return id.asText();
    }

    /** The container id in a message (an answer, {@code message_start}'s message or {@code message_delta}'s delta), or null. */
    public static String answeredContainer(JsonNode message) {
        JsonNode id = message.path("container").path("id");
        return id.isTextual() ? id.asText() : null;
    }

    /** A 404 for a container another key created, that says no more than for one that does not exist. */
    public static GatewayException containerNotFound(String id) {
        return GatewayException.of(ErrorKind.NOT_FOUND, "container: container '" + id + "' not found.")
                .withParam("container");
    }

    /** Refuses a file id in the messages' content blocks (at any depth: a tool result holds blocks too), naming it. */
    public static void refuseFileIds(ObjectNode body) {
        JsonNode messages = body.get("messages");
        if (messages == null || !messages.isArray()) return;
        for (int i = 0; i < messages.size(); i++) refuseIn(messages.get(i).get("content"), "messages[" + i + "].content");
    }

    private static void refuseIn(JsonNode blocks, String at) {
        if (blocks == null || !blocks.isArray()) return;
        for (int j = 0; j < blocks.size(); j++) {
            JsonNode b = blocks.get(j);
            String here = at + "[" + j + "]";
            if (b.has("file_id")) throw fileRefused(here + ".file_id");
            if (b.path("source").has("file_id")) throw fileRefused(here + ".source.file_id");
            refuseIn(b.get("content"), here + ".content");
        }
    }

    static GatewayException fileRefused(String field) {
        return GatewayException.invalid(field, field + ": this gateway does not offer the Files API, so a file id is not"
                + " accepted: send the document or image inline (base64) or as a URL.").withCode("file_id_not_supported");
    }
}
