package dev.modelgateway.sse;

import io.netty.buffer.ByteBuf;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;

import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Incremental SSE parser (WHATWG event-stream rules) over arbitrarily split network buffers.
 * It sits on every stream of both paths, so it scans the network bytes in place and hands each event out as
 * ranges of them ({@link SseEvent}), decoding nothing: only a line split across reads is held back (and
 * copied) until its end arrives, and only data of several lines is joined. The arrays fed in must not change
 * afterwards (Vert.x hands every read over in a buffer of its own); events may keep them.
 * Not thread-safe: one instance per stream, fed from one event loop.
 */
public final class SseParser {
    private static final byte[] DATA = {'d', 'a', 't', 'a'};
    private static final byte[] EVENT = {'e', 'v', 'e', 'n', 't'};
    /** A held line's first buffer: most lines a read splits are short events. */
    private static final int SMALL_LINE = 512;
    private static final long LF_LANES = ByteLanes.lanes((byte) '\n');
    private static final long CR_LANES = ByteLanes.lanes((byte) '\r');

    private final Consumer<SseEvent> sink;
    /** The unfinished last line of the previous reads; made when a line is split, dropped once it was long. */
    private byte[] partial;
    private int partialLength;
    private boolean skipLeadingLf;
    /** The current event's name and data, as ranges of arrays that do not change; no name when nameLength < 0. */
    private byte[] nameArray;
    private int nameOffset;
    private int nameLength = -1;
    private byte[] dataArray;
    private int dataOffset;
    private int dataLength = -1;
    /** Data of several lines, joined with LF: {@code dataArray} then belongs to the parser until dispatched. */
    private boolean joined;

    public SseParser(Consumer<SseEvent> sink) {
        this.sink = sink;
    }

    public void feed(Buffer chunk) {
        if (chunk instanceof BufferInternal internal) {
            ByteBuf buf = internal.unwrap();
            if (buf.hasArray()) {
                feed(buf.array(), buf.arrayOffset() + buf.readerIndex(), buf.readableBytes());
                return;
            }
        }
        feed(chunk.getBytes());
    }

    public void feed(byte[] bytes) {
        feed(bytes, 0, bytes.length);
    }

    public void feed(byte[] bytes, int offset, int length) {
        int end = offset + length;
        int lineStart = offset;
        int i = offset;
        if (skipLeadingLf && length > 0) {
            skipLeadingLf = false;
            if (bytes[offset] == '\n') lineStart = i = offset + 1;
        }
        for (; (i = lineEnd(bytes, i, end)) < end; i++) {
            byte b = bytes[i];
            if (partialLength > 0) {
                hold(bytes, lineStart, i - lineStart);
                line(partial, 0, partialLength, true);
                released();
            } else {
                line(bytes, lineStart, i - lineStart, false);
            }
            if (b == '\r') {
                if (i + 1 < end) {
                    if (bytes[i + 1] == '\n') i++;
                } else {
                    skipLeadingLf = true;
                }
            }
            lineStart = i + 1;
        }
        if (lineStart < end) hold(bytes, lineStart, end - lineStart);
    }

    /**
     * The index of the first CR or LF in {@code [from, to)}, or {@code to}: eight bytes at a time
     * ({@link ByteLanes}), since most of a stream is the text between line ends. The lowest mark of either
     * byte is the first line end.
     */
    static int lineEnd(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = ByteLanes.word(bytes, i);
            long marks = ByteLanes.marks(word, LF_LANES) | ByteLanes.marks(word, CR_LANES);
            if (marks != 0) return i + ByteLanes.lane(marks);
        }
        for (; i < to; i++) {
            if (bytes[i] == '\n' || bytes[i] == '\r') return i;
        }
        return to;
    }

    /** Flushes an event that the upstream left without the final blank line. */
    public void end() {
        if (partialLength > 0) {
            line(partial, 0, partialLength, true);
            released();
        }
        dispatch();
    }

    private void hold(byte[] bytes, int offset, int length) {
        if (partial == null) partial = new byte[Math.max(SMALL_LINE, length)];
        if (partialLength + length > partial.length) {
            partial = Arrays.copyOf(partial, Math.max(partial.length * 2, partialLength + length));
        }
        System.arraycopy(bytes, offset, partial, partialLength, length);
        partialLength += length;
    }

    /** The held line was used: a buffer grown for a long line is not kept for the rest of the stream. */
    private void released() {
        partialLength = 0;
        if (partial.length > 4 * SMALL_LINE) partial = null;
    }

    /** @param reused whether {@code bytes} is the parser's own line buffer, which the next line overwrites */
    private void line(byte[] bytes, int offset, int length, boolean reused) {
        if (length == 0) {
            dispatch();
            return;
        }
        if (bytes[offset] == ':') return; // comment / keep-alive
        int colon = -1;
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] == ':') {
                colon = i;
                break;
            }
        }
        if (colon < 0) return; // a field without value: only "data" would matter, and vendors never send it bare
        int valueStart = colon + 1 < offset + length && bytes[colon + 1] == ' ' ? colon + 2 : colon + 1;
        int valueLength = offset + length - valueStart;
        if (is(bytes, offset, colon, DATA)) {
            data(bytes, valueStart, valueLength, reused);
        } else if (is(bytes, offset, colon, EVENT)) {
            nameArray = reused ? Arrays.copyOfRange(bytes, valueStart, valueStart + valueLength) : bytes;
            nameOffset = reused ? 0 : valueStart;
            nameLength = valueLength;
        } // id, retry: not used by any vendor we relay
    }

    private static boolean is(byte[] bytes, int from, int to, byte[] field) {
        return Arrays.equals(bytes, from, to, field, 0, field.length);
    }

    private void data(byte[] bytes, int offset, int length, boolean reused) {
        if (dataLength < 0) {
            dataArray = reused ? Arrays.copyOfRange(bytes, offset, offset + length) : bytes;
            dataOffset = reused ? 0 : offset;
            dataLength = length;
            return;
        }
        if (!joined || dataLength + 1 + length > dataArray.length) {
            byte[] grown = new byte[Math.max(64, 2 * (dataLength + 1 + length))];
            System.arraycopy(dataArray, dataOffset, grown, 0, dataLength);
            dataArray = grown;
            dataOffset = 0;
            joined = true;
        }
        dataArray[dataLength] = '\n';
        System.arraycopy(bytes, offset, dataArray, dataLength + 1, length);
        dataLength += 1 + length;
    }

    private void dispatch() {
        if (dataLength >= 0) {
            sink.accept(new SseEvent(nameArray, nameOffset, nameLength, dataArray, dataOffset, dataLength));
        }
        nameArray = null;
        nameLength = -1;
        dataArray = null;
        dataLength = -1;
        joined = false;
    }
}
