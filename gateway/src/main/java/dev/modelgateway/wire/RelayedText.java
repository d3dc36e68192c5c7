package dev.modelgateway.wire;

import dev.modelgateway.canonical.LocalTokenizer;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseEvent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The text a native stream relayed, for the one case that needs it: a stream that ends (the caller leaves, the
 * vendor breaks it) before the vendor reported its usage is billed at least the tokens it relayed
 * (docs/accounts.md, "A stream cut before its usage"). Of each delta event only the string values of the
 * format's text fields are copied, still JSON-escaped as they came, without parsing the event; they are decoded and
 * counted with the o200k counter ({@link LocalTokenizer}) only when {@link #tokens()} is asked, so a stream that
 * ends normally never tokenizes. At most {@link #KEPT_BYTES} are kept; bytes beyond count one token per four.
 */
public final class RelayedText {
    static final int KEPT_BYTES = 1 << 20;
    private static final byte[] KEY_END = {'"', ':'};
    private final Fields fields;
    /** Where each text field's name last ended (its closing quote, from the data's start); -1: not seen yet. */
    private final int[] lastQuote;
    private byte[] text = new byte[256];
    private int kept;
    private long dropped;

    /** The fields of a format whose string values are generated text, made once per format. */
    public static final class Fields {
        /** Each name with its opening quote ({@code "content}). */
        private final byte[][] names;
        /** The names' last letters: a field whose name ends otherwise is passed over at once. */
        private final boolean[] lastLetters = new boolean[128];

        /** @param names the fields' names ({@code content}, {@code arguments}, …) */
        public Fields(String... names) {
            this.names = new byte[names.length][];
            for (int i = 0; i < names.length; i++) {
                this.names[i] = ('"' + names[i]).getBytes(StandardCharsets.US_ASCII);
                lastLetters[names[i].charAt(names[i].length() - 1)] = true;
            }
        }
    }

    public RelayedText(Fields fields) {
        this.fields = fields;
        this.lastQuote = new int[fields.names.length];
        Arrays.fill(lastQuote, -1);
    }

    /**
     * Copies the text of one relayed delta event. A stream's deltas of one kind share an envelope, so a text field
     * usually ends where it ended in the previous delta that had it: those places are tried first, and only when
     * none has text is every field of the data read (and every text field copied).
     */
    public void add(SseEvent e) {
        byte[] b = e.dataArray();
        int start = e.dataOffset();
        int end = start + e.dataLength();
        for (int key = 0; key < lastQuote.length; key++) {
            if (lastQuote[key] >= 0 && copyValue(b, start, end, start + lastQuote[key], key) >= 0) return;
        }
        int from = start;
        for (int at; (at = e.dataIndexOf(KEY_END, from)) >= 0; ) {
            from = at + KEY_END.length;
            int key = textKey(b, start, at);
            if (key < 0) continue;
            int next = copyValue(b, start, end, at, key);
            if (next < 0) continue;
            lastQuote[key] = at - start;
            from = next;
        }
    }

    /**
     * Copies the string value of text field {@code key} if its name's closing quote is at {@code quote}: the index
     * past the value, or -1 when the field is not there or its value is not a whole, non-empty string (an empty one
     * may stand before the field that carries the text, as {@code "content":""} before {@code reasoning_content}).
     */
    private int copyValue(byte[] b, int start, int end, int quote, int key) {
        if (quote + 1 >= end || b[quote] != '"' || b[quote + 1] != ':') return -1;
        byte[] name = fields.names[key];
        int nameStart = quote - name.length;
        if (nameStart < start || !Arrays.equals(b, nameStart, quote, name, 0, name.length)) return -1;
        int value = quote + KEY_END.length;
        while (value < end && b[value] == ' ') value++;
        if (value == end || b[value] != '"') return -1;
        int close = stringEnd(b, value + 1, end);
        if (close <= value + 1) return -1;
        keep(b, value + 1, close - value - 1);
        return close + 1;
    }

    /** Which text field's name ends with the quote at {@code quote}; -1 for none. */
    private int textKey(byte[] b, int start, int quote) {
        if (quote <= start || b[quote - 1] < 0 || !fields.lastLetters[b[quote - 1]]) return -1;
        byte[][] names = fields.names;
        for (int i = 0; i < names.length; i++) {
            int nameStart = quote - names[i].length;
            if (nameStart >= start && Arrays.equals(b, nameStart, quote, names[i], 0, names[i].length)) return i;
        }
        return -1;
    }

    /** The index of the quote that closes a JSON string whose content starts at {@code from}, -1 if it does not end. */
    private static int stringEnd(byte[] b, int from, int end) {
        for (int i = from; i < end; i++) {
            if (b[i] == '\\') i++;
            else if (b[i] == '"') return i;
        }
        return -1;
    }

    private void keep(byte[] b, int from, int length) {
        int room = Math.min(length, KEPT_BYTES - kept);
        dropped += length - room;
        if (room == 0) return;
        if (kept + room > text.length) text = Arrays.copyOf(text, Math.min(KEPT_BYTES, Math.max(kept + room, text.length * 2)));
        System.arraycopy(b, from, text, kept, room);
        kept += room;
    }

    /** The bytes relayed as text (JSON-escaped): what counting them costs. */
    public long bytes() {
        return kept + dropped;
    }

    /** The relayed text's tokens: the kept text decoded and counted, plus a quarter of the bytes beyond it. */
    public long tokens() {
        return LocalTokenizer.count(decoded()) + dropped / 4;
    }

    /** The kept bytes as text: the JSON strings' contents joined, unescaped (as raw UTF-8 if cut inside an escape). */
    private String decoded() {
        byte[] quoted = new byte[kept + 2];
        quoted[0] = '"';
        System.arraycopy(text, 0, quoted, 1, kept);
        quoted[kept + 1] = '"';
        try {
            return Json.MAPPER.readValue(quoted, String.class);
        } catch (IOException e) {
            return new String(text, 0, kept, StandardCharsets.UTF_8);
        }
    }
}
