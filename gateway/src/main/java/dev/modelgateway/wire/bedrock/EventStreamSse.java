package dev.modelgateway.wire.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Locale;

/**
 * Bedrock's event stream as SSE, at the transport edge (docs/clouds.md, "The event stream"), so that the taps and
 * decoders behind it stay SSE-based. Per read: the messages it completes become SSE events, appended to one buffer.
 * <ul>
 *   <li>Invoke: a {@code chunk} event's payload {@code {"bytes":"<base64>"}} holds one of vendor A's stream events;
 *       it becomes {@code event: <its "type">\ndata: <its JSON bytes as decoded>\n\n}, vendor A's own SSE, which the
 *       native tap relays unchanged (no re-serialisation);</li>
 *   <li>Converse: each event becomes {@code event: <:event-type>\ndata: <payload>\n\n};</li>
 *   <li>an exception or error frame becomes the {@link GatewayException} {@link BedrockErrors} maps it to, thrown; a
 *       corrupt stream one too (502).</li>
 * </ul>
 * One per stream, on its event loop; not thread-safe.
 */
public final class EventStreamSse {
    private static final byte[] EVENT = "event: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "\ndata: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = {'\n', '\n'};
    private static final byte[] TYPE_KEY = "\"type\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BYTES_KEY = "\"bytes\"".getBytes(StandardCharsets.US_ASCII);

    private final EventStreamDecoder decoder;
    private final boolean invoke;
    private final String region;
    private Buffer out;
    private GatewayException pending;

    private EventStreamSse(int maxMessageBytes, boolean invoke, String region) {
        this.decoder = new EventStreamDecoder(maxMessageBytes);
        this.invoke = invoke;
        this.region = region;
    }

    /** InvokeModelWithResponseStream: chunks of vendor A's events. @param region the deployment's, for error messages; may be null */
    public static EventStreamSse invoke(int maxMessageBytes, String region) {
        return new EventStreamSse(maxMessageBytes, true, region);
    }

    /** ConverseStream: Converse's events by their {@code :event-type}. */
    public static EventStreamSse converse(int maxMessageBytes, String region) {
        return new EventStreamSse(maxMessageBytes, false, region);
    }

    /**
     * Whether an answer's content type is the event stream: a stream endpoint's 2xx answer of any other type (a JSON
     * error body) must be read as JSON, never as frames (LiteLLM PR #28551 reported one as a checksum mismatch).
     */
    public static boolean isEventStream(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("application/vnd.amazon.eventstream");
    }

    /**
     * The SSE bytes of the messages this read completes (empty when it completes none).
     *
     * @throws GatewayException for an exception frame (its mapped kind) or a corrupt stream (502)
     */
    public Buffer convert(Buffer read) {
        out = Buffer.buffer(read.length() + 64);
        GatewayException failed = null;
        try {
            decoder.feed(read, this::append);
        } catch (EventStreamException e) {
            failed = BedrockErrors.corruptStream(e);
        } catch (GatewayException e) {
            failed = e;
        }
        Buffer done = out;
        out = null;
        if (failed != null) {
            // the events before the failure in this read still reach the caller first: then the failure (pending())
            if (done.length() == 0) throw failed;
            pending = failed;
        }
        return done;
    }

    /**
     * The failure a read ended on after events that {@link #convert} returned (an exception frame behind chunks in one
     * read), once, to be reported after those events are relayed; null when there is none.
     */
    public GatewayException pending() {
        GatewayException p = pending;
        pending = null;
        return p;
    }

    /**
     * At the end of the vendor's body: a stream cut inside a message is the vendor's failure.
     *
     * @throws GatewayException 502 when a message was left unfinished
     */
    public void end() {
        if (decoder.midMessage()) throw BedrockErrors.corruptStream(new EventStreamException("the stream ended inside a message"));
    }

    private void append(EventStreamMessage m) {
        String messageType = m.messageType();
        if ("exception".equals(messageType) || "error".equals(messageType)) throw BedrockErrors.fromFrame(m, region);
        if (!"event".equals(messageType) && messageType != null) return;
        String eventType = m.eventType();
        if (eventType == null) return;
        if (!invoke) {
            write(eventType.getBytes(StandardCharsets.UTF_8), m.payload(), 0, m.payload().length);
            return;
        }
        if (!"chunk".equals(eventType)) return; // Invoke's stream has only chunks; anything new is not vendor A's event
        byte[] json = chunkBytes(m.payload());
        if (json == null) {
            throw BedrockErrors.corruptStream(new EventStreamException("a chunk's payload has no base64 \"bytes\""));
        }
        byte[] type = topLevelType(json);
        if (type == null) throw BedrockErrors.corruptStream(new EventStreamException("a chunk's event has no \"type\""));
        flattenLines(json);
        write(type, json, 0, json.length);
    }

    private void write(byte[] event, byte[] data, int offset, int length) {
        out.appendBytes(EVENT).appendBytes(event).appendBytes(DATA).appendBytes(data, offset, length).appendBytes(END);
    }

    /** The decoded {@code bytes} of {@code {"bytes":"…","p":"…"}}, read without a tree; null when absent or not base64. */
    static byte[] chunkBytes(byte[] payload) {
        int key = indexOf(payload, BYTES_KEY, 0);
        if (key >= 0) {
            int i = skipSpace(payload, key + BYTES_KEY.length);
            if (i < payload.length && payload[i] == ':') {
                i = skipSpace(payload, i + 1);
                if (i < payload.length && payload[i] == '"') {
                    int start = i + 1, end = start;
                    while (end < payload.length && payload[end] != '"' && payload[end] != '\\') end++;
                    if (end < payload.length && payload[end] == '"') return base64(ByteBuffer.wrap(payload, start, end - start));
                }
            }
        }
        // an escaped value ("\/" is legal JSON) or an unusual layout: read it properly
        JsonNode tree = Json.parseOrNull(payload, 0, payload.length);
        JsonNode bytes = tree == null ? null : tree.get("bytes");
        return bytes != null && bytes.isTextual() ? base64(ByteBuffer.wrap(bytes.asText().getBytes(StandardCharsets.US_ASCII))) : null;
    }

    private static byte[] base64(ByteBuffer text) {
        try {
            ByteBuffer decoded = Base64.getDecoder().decode(text);
            // the decoder sizes its array from the text: it is the answer itself unless the text was padded oddly
            if (decoded.arrayOffset() == 0 && decoded.position() == 0 && decoded.remaining() == decoded.array().length) {
                return decoded.array();
            }
            byte[] out = new byte[decoded.remaining()];
            decoded.get(out);
            return out;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * The value of the object's top-level {@code "type"} (vendor A writes it first), found by a scan that tracks
     * nesting and strings; the JSON parser reads it only when the value is escaped.
     */
    static byte[] topLevelType(byte[] json) {
        int depth = 0;
        for (int i = 0; i < json.length; i++) {
            byte c = json[i];
            if (c == '"') {
                if (depth == 1 && matches(json, i, TYPE_KEY)) {
                    int v = skipSpace(json, i + TYPE_KEY.length);
                    if (v < json.length && json[v] == ':') {
                        v = skipSpace(json, v + 1);
                        if (v < json.length && json[v] == '"') {
                            int end = v + 1;
                            while (end < json.length && json[end] != '"' && json[end] != '\\') end++;
                            if (end < json.length && json[end] == '"') return Arrays.copyOfRange(json, v + 1, end);
                            break;
                        }
                    }
                }
                i = stringEnd(json, i);
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        JsonNode tree = Json.parseOrNull(json, 0, json.length);
        JsonNode type = tree == null ? null : tree.get("type");
        return type != null && type.isTextual() && type.asText().indexOf('\n') < 0 ? type.asText().getBytes(StandardCharsets.UTF_8) : null;
    }

    /** An SSE data line ends at a newline: JSON whitespace newlines become spaces (inside strings they are escaped). */
    private static void flattenLines(byte[] json) {
        for (int i = 0; i < json.length; i++) if (json[i] == '\n' || json[i] == '\r') json[i] = ' ';
    }

    private static int stringEnd(byte[] b, int quote) {
        int i = quote + 1;
        while (i < b.length && b[i] != '"') i += b[i] == '\\' ? 2 : 1;
        return i;
    }

    private static boolean matches(byte[] b, int at, byte[] what) {
        if (at + what.length > b.length) return false;
        for (int k = 0; k < what.length; k++) if (b[at + k] != what[k]) return false;
        return true;
    }

    private static int indexOf(byte[] b, byte[] what, int from) {
        for (int i = from; i + what.length <= b.length; i++) if (matches(b, i, what)) return i;
        return -1;
    }

    private static int skipSpace(byte[] b, int i) {
        while (i < b.length && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r')) i++;
        return i;
    }
}
