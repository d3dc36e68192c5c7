package dev.modelgateway.json;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/** The gateway's one Jackson mapper and the parsing of request bodies into JSON objects. */
public final class Json {
    /** Requests may legitimately carry tens of MB of base64 images in one string (the body limit bounds it too). */
    public static final int MAX_STRING_LENGTH = 64 * 1024 * 1024;
    /** Deeper documents are refused before any recursive code (decoders, schema conversion) walks them. */
    public static final int MAX_NESTING_DEPTH = 256;
    /** Digits in one number: longer ones cost quadratic time to convert (Jackson's default). */
    public static final int MAX_NUMBER_LENGTH = 1000;
    /** Characters in one field name (Jackson's default). */
    public static final int MAX_NAME_LENGTH = 50_000;

    public static final ObjectMapper MAPPER = new ObjectMapper();
    /** Request bodies are exactly one JSON value: bytes after it are an error, not ignored (as vendors answer). */
    private static final ObjectReader REQUEST_READER;

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(MAX_STRING_LENGTH)
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .maxNumberLength(MAX_NUMBER_LENGTH)
                .maxNameLength(MAX_NAME_LENGTH)
                .build());
        REQUEST_READER = MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    private Json() {
    }

    /**
     * Parses a request body that must be a JSON object; anything else is the caller's 400. Field names with
     * a control character are refused: they would end up in response headers and log lines.
     */
    public static ObjectNode parseObject(Buffer body) {
        if (body == null || body.length() == 0) {
            throw GatewayException.invalid(null, "The request body is empty; send a JSON object.");
        }
        JsonNode node;
        try {
            node = REQUEST_READER.readTree(body.getBytes());
        } catch (StreamConstraintsException e) {
            throw GatewayException.invalid(null, "The request body exceeds a JSON limit: " + limitMessage(e) + ".");
        } catch (JsonProcessingException e) {
            throw GatewayException.invalid(null, "The request body is not valid JSON: " + describe(e) + where(e));
        } catch (IOException | RuntimeException e) {
            throw GatewayException.invalid(null, "The request body could not be read as JSON.");
        }
        if (node == null || !node.isObject()) {
            throw GatewayException.invalid(null, "The request body must be a JSON object.");
        }
        checkFieldNames(node);
        return (ObjectNode) node;
    }

    /** "Number value length (2000) exceeds the maximum allowed (1000)", without Jackson's method names. */
    static String limitMessage(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        return m.replaceAll(",\\s*from `[^`]*`", "").replaceAll("\\s*\\(?StreamReadConstraints[^)]*\\)?", "").trim();
    }

    /** Jackson's own words, except where they name Java types; some exceptions carry no message at all. */
    static String describe(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        if (m == null || m.isBlank()) return "it could not be parsed";
        if (m.startsWith("Trailing token")) return "more data follows the JSON value";
        return m;
    }

    private static String where(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        if (at == null || at.getLineNr() < 0) return "";
        return " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    private static void checkFieldNames(JsonNode root) {
        Deque<JsonNode> todo = new ArrayDeque<>();
        todo.push(root);
        while (!todo.isEmpty()) {
            JsonNode n = todo.pop();
            if (n.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (hasControl(e.getKey())) {
                        throw GatewayException.invalid(null, "Invalid field name " + quoted(e.getKey())
                                + ": field names must not contain a control character (U+0000 to U+001F, U+007F).");
                    }
                    if (e.getValue().isContainerNode()) todo.push(e.getValue());
                }
            } else if (n.isArray()) {
                for (JsonNode v : n) if (v.isContainerNode()) todo.push(v);
            }
        }
    }

    static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) return true;
        }
        return false;
    }

    /** A name for a message: control characters escaped, at most 64 characters. */
    public static String quoted(String s) {
        StringBuilder b = new StringBuilder("'");
        for (int i = 0; i < s.length() && i < 64; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) b.append(String.format("\\u%04X", (int) c));
            else b.append(c);
        }
        if (s.length() > 64) b.append("…");
        return b.append('\'').toString();
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
