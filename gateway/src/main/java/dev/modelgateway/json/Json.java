package dev.modelgateway.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

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
    /** Writes {@link #append}'s JSON: supplementary characters as UTF-8, as a String would encode them. */
    private static final ObjectMapper TEXT_WRITER = new ObjectMapper(JsonFactory.builder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build());
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
            ByteBuf buf = heapBytes(body);
            node = buf != null ? REQUEST_READER.readTree(buf.array(), buf.arrayOffset() + buf.readerIndex(), buf.readableBytes())
                    : REQUEST_READER.readTree(stream(body));
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

    /**
     * Appends {@code node} to {@code out} as UTF-8 JSON, written straight into the buffer: no String, no byte
     * array in between. Characters beyond the BMP (emoji) are written as themselves, not as escaped surrogate
     * pairs: what the gateway's streamed frames have always carried.
     */
    public static void append(JsonNode node, Buffer out) {
        try (JsonGenerator g = TEXT_WRITER.getFactory().createGenerator(new BufferOutput(out))) {
            TEXT_WRITER.writeTree(g, node);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise JSON", e);
        }
    }

    /**
     * Appends {@code text} as a JSON string, as {@link #append} would write it, with Jackson's own string
     * encoder: no tree, no generator.
     */
    public static void appendString(String text, Buffer out) {
        byte[] quoted;
        try {
            quoted = JsonStringEncoder.getInstance().quoteAsUTF8(text);
        } catch (IllegalArgumentException halfSurrogate) {
            // the encoder refuses a lone surrogate, which the generator writes as an escape (\uD83D)
            try (JsonGenerator g = TEXT_WRITER.getFactory().createGenerator(new BufferOutput(out))) {
                g.writeString(text);
            } catch (IOException e) {
                throw new IllegalStateException("cannot serialise JSON", e);
            }
            return;
        }
        out.appendByte((byte) '"').appendBytes(quoted).appendByte((byte) '"');
    }

    /** Where {@link #append} and {@link #appendString} write. */
    private static final class BufferOutput extends OutputStream {
        private final Buffer out;

        BufferOutput(Buffer out) {
            this.out = out;
        }

        @Override
        public void write(int b) {
            out.appendByte((byte) b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            out.appendBytes(b, off, len);
        }
    }

    public static JsonNode parseOrNull(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * {@link #parseOrNull(String)} of UTF-8 bytes, read where they are (no String in between). Bytes that are
     * not valid UTF-8 are read as their String would be (malformed sequences replaced), as before.
     */
    public static JsonNode parseOrNull(byte[] bytes, int offset, int length) {
        try {
            return MAPPER.readTree(bytes, offset, length);
        } catch (IOException e) {
            return parseOrNull(new String(bytes, offset, length, StandardCharsets.UTF_8));
        }
    }

    /** {@link #parseOrNull(byte[], int, int)} of a buffer, read in place. */
    public static JsonNode parseOrNull(Buffer body) {
        ByteBuf buf = heapBytes(body);
        if (buf == null) return parseOrNull(body.getBytes(), 0, body.length());
        return parseOrNull(buf.array(), buf.arrayOffset() + buf.readerIndex(), buf.readableBytes());
    }

    /** The body's bytes as a stream, read in place: a body kept as its chunks (http/BodyChunks) is not copied whole. */
    private static InputStream stream(Buffer body) {
        ByteBuf buf = netty(body);
        return buf != null ? new ByteBufInputStream(buf.duplicate()) : new ByteArrayInputStream(body.getBytes());
    }

    /** The buffer's Netty buffer when its bytes are in an array that can be read in place, else null. */
    private static ByteBuf heapBytes(Buffer body) {
        ByteBuf buf = netty(body);
        return buf != null && buf.hasArray() ? buf : null;
    }

    private static ByteBuf netty(Buffer body) {
        return body instanceof BufferInternal internal ? internal.unwrap() : null;
    }

    /**
     * What {@link #parseOrNull(Buffer)} would give, but holding only the top-level {@code fields} of an object
     * (an object without them for any other value): the rest is read to check it is JSON, never built.
     */
    public static ObjectNode parseFields(Buffer body, Set<String> fields) {
        ByteBuf buf = heapBytes(body);
        byte[] bytes = buf != null ? buf.array() : body.getBytes();
        int offset = buf != null ? buf.arrayOffset() + buf.readerIndex() : 0;
        ObjectNode kept = MAPPER.createObjectNode();
        try (JsonParser p = MAPPER.createParser(bytes, offset, body.length())) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                p.skipChildren();
                return kept;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (fields.contains(name)) kept.set(name, p.readValueAsTree());
                else p.skipChildren();
            }
            if (p.currentToken() != JsonToken.END_OBJECT) throw new JsonParseException(p, "unterminated object");
            return kept;
        } catch (IOException e) {
            JsonNode whole = parseOrNull(new String(bytes, offset, body.length(), StandardCharsets.UTF_8));
            if (whole == null) return null;
            kept.removeAll();
            if (whole.isObject()) fields.forEach(f -> {
                if (whole.has(f)) kept.set(f, whole.get(f));
            });
            return kept;
        }
    }
}
