package dev.modelgateway.wire.bedrock;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.zip.CRC32;

/**
 * An incremental decoder of the AWS binary event stream (AWS docs, "Event stream encoding",
 * https://docs.aws.amazon.com/transcribe/latest/dg/event-stream.html, and the Smithy spec "Event stream message
 * format"): each message is a 12-byte prelude (total length, headers length, CRC32 of those 8 bytes), the headers,
 * the payload, and a CRC32 of everything before it. Reads may cut a message anywhere or carry several: whole messages
 * in a read are decoded where they lie, and only the unfinished tail is kept, in one buffer sized by its prelude.
 *
 * <p>A prelude announcing more than the cap is refused before anything of it is buffered; a wrong CRC, impossible
 * lengths or an unknown header type end the stream with an {@link EventStreamException}, after which every feed
 * throws again (the message boundaries are lost). One decoder per stream; not thread-safe.
 */
public final class EventStreamDecoder {
    /** Prelude (8 bytes of lengths + its CRC) and the message CRC: a message with no header and no payload. */
    static final int PRELUDE = 12;
    static final int OVERHEAD = 16;

    private final int maxMessageBytes;
    private final CRC32 crc = new CRC32();
    /** The unfinished message: {@code pendingLength} bytes of it so far, in an array as long as it announced. */
    private byte[] pending = new byte[PRELUDE];
    private int pendingLength;
    /** The current message's total length once its prelude is checked; -1 before. */
    private int expected = -1;
    private EventStreamException failed;

    /** @param maxMessageBytes the largest message accepted, prelude and CRCs included */
    public EventStreamDecoder(int maxMessageBytes) {
        if (maxMessageBytes < OVERHEAD) throw new IllegalArgumentException("maxMessageBytes < " + OVERHEAD);
        this.maxMessageBytes = maxMessageBytes;
    }

    /**
     * Decodes the messages this read completes, in order, handing each to {@code out}. The read's bytes are decoded
     * where they lie when it has a backing array (as {@code SseParser} reads them): every byte of a Bedrock stream
     * passes here, and a copy of each read was the decoder's largest allocation.
     */
    public void feed(Buffer read, Consumer<EventStreamMessage> out) {
        if (read instanceof BufferInternal internal && internal.unwrap() instanceof ByteBuf buf && buf.hasArray()) {
            feed(buf.array(), buf.arrayOffset() + buf.readerIndex(), buf.readableBytes(), out);
            return;
        }
        byte[] bytes = read.getBytes();
        feed(bytes, 0, bytes.length, out);
    }

    /** @throws EventStreamException when the stream is corrupt or a message exceeds the cap (then and on every later feed) */
    public void feed(byte[] bytes, int offset, int length, Consumer<EventStreamMessage> out) {
        if (failed != null) throw failed;
        try {
            decode(bytes, offset, offset + length, out);
        } catch (EventStreamException e) {
            failed = e;
            throw e;
        }
    }

    /** True when the bytes of an unfinished message are held: a stream that ends now was cut mid-message. */
    public boolean midMessage() {
        return pendingLength > 0;
    }

    private void decode(byte[] in, int pos, int end, Consumer<EventStreamMessage> out) {
        if (pendingLength > 0) {
            pos = completePending(in, pos, end, out);
            if (pendingLength > 0) return;
        }
        while (end - pos >= PRELUDE) {
            int total = checkPrelude(in, pos);
            if (end - pos < total) break;
            out.accept(message(in, pos, total));
            pos += total;
        }
        if (pos < end) {
            // the tail of the read starts a message: keep it (its prelude, when whole, tells how long it will be)
            if (end - pos >= PRELUDE) start(checkPrelude(in, pos));
            System.arraycopy(in, pos, pending, 0, end - pos);
            pendingLength = end - pos;
        }
    }

    /** Adds to the unfinished message; returns where the read goes on. */
    private int completePending(byte[] in, int pos, int end, Consumer<EventStreamMessage> out) {
        if (expected < 0) {
            int take = Math.min(PRELUDE - pendingLength, end - pos);
            System.arraycopy(in, pos, pending, pendingLength, take);
            pendingLength += take;
            pos += take;
            if (pendingLength < PRELUDE) return pos;
            byte[] prelude = pending;
            start(checkPrelude(prelude, 0));
            System.arraycopy(prelude, 0, pending, 0, PRELUDE);
        }
        int take = Math.min(expected - pendingLength, end - pos);
        System.arraycopy(in, pos, pending, pendingLength, take);
        pendingLength += take;
        pos += take;
        if (pendingLength == expected) {
            EventStreamMessage m = message(pending, 0, expected);
            pendingLength = 0;
            expected = -1;
            pending = new byte[PRELUDE];
            out.accept(m);
        }
        return pos;
    }

    private void start(int total) {
        expected = total;
        pending = new byte[total];
    }

    /** The message's total length, once its prelude's CRC and lengths are checked (before any of it is buffered). */
    private int checkPrelude(byte[] b, int at) {
        crc.reset();
        crc.update(b, at, 8);
        if ((int) crc.getValue() != readInt(b, at + 8)) throw new EventStreamException("event stream prelude CRC mismatch");
        long total = readInt(b, at) & 0xffffffffL;
        long headers = readInt(b, at + 4) & 0xffffffffL;
        if (total < OVERHEAD || headers > total - OVERHEAD) {
            throw new EventStreamException("event stream message lengths are impossible (total " + total + ", headers " + headers + ")");
        }
        if (total > maxMessageBytes) {
            throw new EventStreamException("event stream message of " + total + " bytes exceeds the limit of " + maxMessageBytes);
        }
        return (int) total;
    }

    private EventStreamMessage message(byte[] b, int at, int total) {
        crc.reset();
        crc.update(b, at, total - 4);
        if ((int) crc.getValue() != readInt(b, at + total - 4)) throw new EventStreamException("event stream message CRC mismatch");
        int headersLength = readInt(b, at + 4);
        int payloadAt = at + PRELUDE + headersLength;
        return new EventStreamMessage(headers(b, at + PRELUDE, payloadAt),
                Arrays.copyOfRange(b, payloadAt, at + total - 4));
    }

    /** The header wire types (AWS docs, "Event stream encoding": 0 true … 9 uuid). */
    private static Map<String, Object> headers(byte[] b, int pos, int end) {
        Map<String, Object> out = new LinkedHashMap<>();
        while (pos < end) {
            int nameLength = b[pos++] & 0xff;
            need(pos, nameLength + 1, end);
            String name = text(b, pos, nameLength);
            pos += nameLength;
            int type = b[pos++];
            Object value;
            switch (type) {
                case 0 -> value = Boolean.TRUE;
                case 1 -> value = Boolean.FALSE;
                case 2 -> {
                    need(pos, 1, end);
                    value = b[pos];
                    pos += 1;
                }
                case 3 -> {
                    need(pos, 2, end);
                    value = (short) ((b[pos] << 8) | (b[pos + 1] & 0xff));
                    pos += 2;
                }
                case 4 -> {
                    need(pos, 4, end);
                    value = readInt(b, pos);
                    pos += 4;
                }
                case 5, 8 -> {
                    need(pos, 8, end);
                    long v = readLong(b, pos);
                    value = type == 5 ? (Object) v : Instant.ofEpochMilli(v);
                    pos += 8;
                }
                case 6, 7 -> {
                    need(pos, 2, end);
                    int length = ((b[pos] & 0xff) << 8) | (b[pos + 1] & 0xff);
                    pos += 2;
                    need(pos, length, end);
                    value = type == 6 ? Arrays.copyOfRange(b, pos, pos + length) : text(b, pos, length);
                    pos += length;
                }
                case 9 -> {
                    need(pos, 16, end);
                    value = new UUID(readLong(b, pos), readLong(b, pos + 8));
                    pos += 16;
                }
                default -> throw new EventStreamException("event stream header '" + name + "' has unknown type " + type);
            }
            out.put(name, value);
        }
        return out;
    }

    private static void need(int pos, int length, int end) {
        if (pos + length > end) throw new EventStreamException("event stream header runs past the headers' length");
    }

    /**
     * The header names and values every message of a Bedrock stream repeats, shared rather than decoded each time
     * (three names and three values per message).
     */
    private static final String[] COMMON = {":message-type", ":event-type", ":content-type", ":exception-type", "event",
            "chunk", "exception", "application/json"};
    private static final byte[][] COMMON_BYTES = Arrays.stream(COMMON).map(t -> t.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);

    private static String text(byte[] b, int at, int length) {
        for (int k = 0; k < COMMON.length; k++) {
            if (COMMON_BYTES[k].length == length && Arrays.equals(COMMON_BYTES[k], 0, length, b, at, at + length)) return COMMON[k];
        }
        return new String(b, at, length, StandardCharsets.UTF_8);
    }

    private static int readInt(byte[] b, int at) {
        return ((b[at] & 0xff) << 24) | ((b[at + 1] & 0xff) << 16) | ((b[at + 2] & 0xff) << 8) | (b[at + 3] & 0xff);
    }

    private static long readLong(byte[] b, int at) {
        return ((long) readInt(b, at) << 32) | (readInt(b, at + 4) & 0xffffffffL);
    }
}
