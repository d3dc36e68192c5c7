package dev.modelgateway.canonical;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Request fields the canonical model has no slot for (seed, logprobs, metadata, service_tier…), kept under
 * their inbound protocol's names. A vendor speaking the same protocol may pass them through; the others
 * decide per field to warn or reject.
 *
 * @param protocol "chat" or "messages": whose names {@code fields} uses
 */
public record UnmappedFields(String protocol, ObjectNode fields) {
    public static final String CHAT = "chat";
    public static final String MESSAGES = "messages";

    public static UnmappedFields empty(String protocol) {
        return new UnmappedFields(protocol, JsonNodeFactory.instance.objectNode());
    }

    public List<Map.Entry<String, JsonNode>> entries() {
        List<Map.Entry<String, JsonNode>> out = new ArrayList<>();
        fields.properties().forEach(out::add);
        return out;
    }

    public boolean isEmpty() { return fields.isEmpty(); }
}
