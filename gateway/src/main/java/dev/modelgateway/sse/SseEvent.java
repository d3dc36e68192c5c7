package dev.modelgateway.sse;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * One server-sent event. {@code event} is null when the stream has only {@code data:} lines (chat
 * completions); {@code data} is the joined data lines without the trailing newline.
 *
 * <p>The parser hands out the event as UTF-8 bytes, usually a slice of the network buffer it was read from
 * (never copied, never modified afterwards): a relay writes the bytes on unchanged and a JSON parser reads
 * them, and the text is decoded only if someone asks for it.
 */
public final class SseEvent {
    private static final byte[] EVENT_FIELD = "event: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA_FIELD = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LF = {'\n'};
    private static final byte[] BLANK_LINE = {'\n', '\n'};

    private final byte[] nameBytes;
    private final int nameOffset;
    /** -1 when the event has no name. */
    private final int nameLength;
    private final byte[] bytes;
    private final int dataOffset;
    private final int dataLength;
    private String event;
    private String data;

    /** An event made of text, as tests build them. */
    public SseEvent(String event, String data) {
        this(event == null ? null : event.getBytes(StandardCharsets.UTF_8), data.getBytes(StandardCharsets.UTF_8));
        this.event = event;
        this.data = data;
    }

    private SseEvent(byte[] name, byte[] data) {
        this(name, 0, name == null ? -1 : name.length, data, 0, data.length);
    }

    /**
     * An event whose name (when {@code nameLength >= 0}) and data are ranges of arrays that must not change
     * afterwards.
     */
    SseEvent(byte[] nameBytes, int nameOffset, int nameLength, byte[] dataBytes, int dataOffset, int dataLength) {
        this.nameBytes = nameBytes;
        this.nameOffset = nameOffset;
        this.nameLength = nameLength;
        this.bytes = dataBytes;
        this.dataOffset = dataOffset;
        this.dataLength = dataLength;
    }

    /** The event's name, null for an unnamed event. */
    public String event() {
        if (event == null && nameLength >= 0) event = new String(nameBytes, nameOffset, nameLength, StandardCharsets.UTF_8);
        return event;
    }

    /** The data, decoded (once) from its bytes. */
    public String data() {
        if (data == null) data = new String(bytes, dataOffset, dataLength, StandardCharsets.UTF_8);
        return data;
    }

    /** The data's UTF-8 bytes: {@link #dataLength()} bytes of this array from {@link #dataOffset()}; read only. */
    public byte[] dataArray() {
        return bytes;
    }

    public int dataOffset() {
        return dataOffset;
    }

    public int dataLength() {
        return dataLength;
    }

    /** Whether the event's name is {@code name} (ASCII), without decoding it. */
    public boolean named(byte[] name) {
        return nameLength == name.length && Arrays.equals(nameBytes, nameOffset, nameOffset + nameLength, name, 0, name.length);
    }

    /** Whether the data is exactly {@code text} (ASCII bytes). */
    public boolean dataIs(byte[] text) {
        return dataLength == text.length && dataStartsWith(text);
    }

    public boolean dataStartsWith(byte[] prefix) {
        return dataLength >= prefix.length && Arrays.equals(bytes, dataOffset, dataOffset + prefix.length, prefix, 0, prefix.length);
    }

    /**
     * Whether {@code part} (a non-empty byte sequence) occurs in the data. A tap asks this of every event of a
     * stream, so the data is scanned eight bytes at a time ({@link ByteLanes}) for the part's last byte, which
     * is rarer in JSON than its first when the part is a key and the brace opening its value (the chat tap's
     * usage mark).
     */
    public boolean dataContains(byte[] part) {
        int n = part.length;
        byte last = part[n - 1];
        long lanes = ByteLanes.lanes(last);
        int end = dataOffset + dataLength;
        int i = dataOffset + n - 1; // the first place the part's last byte can be
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            for (long marks = ByteLanes.marks(ByteLanes.word(bytes, i), lanes); marks != 0; marks &= marks - 1) {
                if (endsAt(i + ByteLanes.lane(marks), part)) return true;
            }
        }
        for (; i < end; i++) {
            if (endsAt(i, part)) return true;
        }
        return false;
    }

    /**
     * Where {@code part} (non-empty) first occurs in the data at or after {@code from} (an index of
     * {@link #dataArray()}, from {@link #dataOffset()} on): the index in {@link #dataArray()} of its first byte, or -1.
     */
    public int dataIndexOf(byte[] part, int from) {
        int n = part.length;
        byte last = part[n - 1];
        long lanes = ByteLanes.lanes(last);
        int end = dataOffset + dataLength;
        int i = from + n - 1; // the first place the part's last byte can be
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            for (long marks = ByteLanes.marks(ByteLanes.word(bytes, i), lanes); marks != 0; marks &= marks - 1) {
                int at = i + ByteLanes.lane(marks);
                if (endsAt(at, part)) return at - n + 1;
            }
        }
        for (; i < end; i++) {
            if (endsAt(i, part)) return i - n + 1;
        }
        return -1;
    }

    private boolean endsAt(int at, byte[] part) {
        return bytes[at] == part[part.length - 1] && Arrays.equals(bytes, at - part.length + 1, at + 1, part, 0, part.length);
    }

    /**
     * Appends the event as one frame: its {@code event:} line if it has a name, one {@code data:} line and the
     * blank line that ends it, copied from the bytes it was parsed from.
     */
    public void appendFrame(Buffer out) {
        if (nameLength >= 0) out.appendBytes(EVENT_FIELD).appendBytes(nameBytes, nameOffset, nameLength).appendBytes(LF);
        out.appendBytes(DATA_FIELD).appendBytes(bytes, dataOffset, dataLength).appendBytes(BLANK_LINE);
    }

    /**
     * Where the frame {@link #appendFrame} would write lies, byte for byte, in {@code array} within
     * {@code [from, to)}: its start, or -1 when it does not (the event was read from other bytes, its lines end
     * in CR, its data was joined from several lines, a comment or another field lies between its lines). The
     * frame then ends at {@link #frameEnd()}.
     */
    public int frameStartIn(byte[] array, int from, int to) {
        int start = dataOffset - DATA_FIELD.length;
        int end = frameEnd();
        if (bytes != array || start < from || end > to
                || !Arrays.equals(array, start, dataOffset, DATA_FIELD, 0, DATA_FIELD.length)
                || !Arrays.equals(array, end - BLANK_LINE.length, end, BLANK_LINE, 0, BLANK_LINE.length)) return -1;
        if (nameLength < 0) return start;
        int nameStart = nameOffset - EVENT_FIELD.length;
        int nameEnd = nameOffset + nameLength;
        if (nameBytes != array || nameStart < from || nameEnd + LF.length != start || array[nameEnd] != '\n'
                || !Arrays.equals(array, nameStart, nameOffset, EVENT_FIELD, 0, EVENT_FIELD.length)) return -1;
        return nameStart;
    }

    /** The end of the frame {@link #frameStartIn} found: past the data and the blank line after it. */
    public int frameEnd() {
        return dataOffset + dataLength + BLANK_LINE.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SseEvent e && Objects.equals(event(), e.event()) && data().equals(e.data());
    }

    @Override
    public int hashCode() {
        return Objects.hash(event(), data());
    }

    @Override
    public String toString() {
        return "SseEvent[event=" + event() + ", data=" + data() + "]";
    }
}
