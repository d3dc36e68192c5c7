package dev.modelgateway.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;

/** The gateway's one Jackson mapper and the parsing of request bodies into JSON objects. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    static {
        // Requests may legitimately carry tens of MB of base64 images in one string.
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(64 * 1024 * 1024).build());
    }

    private Json() {
    }

    /** Parses a request body that must be a JSON object; anything else is the caller's 400. */
    public static ObjectNode parseObject(Buffer body) {
        if (body == null || body.length() == 0) {
            throw GatewayException.invalid(null, "The request body is empty; send a JSON object.");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body.getBytes());
        } catch (JsonProcessingException e) {
            throw GatewayException.invalid(null, "The request body is not valid JSON: " + e.getOriginalMessage()
                    + " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")");
        } catch (IOException e) {
            throw GatewayException.invalid(null, "The request body could not be read: " + e.getMessage());
        }
        if (node == null || !node.isObject()) {
            throw GatewayException.invalid(null, "The request body must be a JSON object.");
        }
        return (ObjectNode) node;
    }

    public static Buffer toBuffer(JsonNode node) {
        try {
            return Buffer.buffer(MAPPER.writeValueAsBytes(node));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise JSON", e);
        }
    }

    public static JsonNode parseOrNull(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
