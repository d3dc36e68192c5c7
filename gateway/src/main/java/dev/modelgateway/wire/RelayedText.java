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
 * (docs/accounts.md, "Billing"). Of each delta event only the string values of the format's text fields are
 * copied, still JSON-escaped as they came, without parsing the event; they are decoded and counted with the
 * o200k counter ({@link LocalTokenizer}) only when {@link #tokens()} is asked, so a stream that ends normally
 * never tokenizes. At most {@link #KEPT_BYTES} are kept; bytes beyond count one token per four.
 */
public final class RelayedText {
    static final int KEPT_BYTES = 1 << 20;
    private static final byte[] KEY_END = {'"', ':'};
    private final byte[][] keys;
    private byte[] text = new byte[64];
    private int kept;
    private long dropped;

    /** @param keys the fields whose string values are generated text ({@code content}, {@code arguments}, …) */
    public RelayedText(String... keys) {
        this.keys = new byte[keys.length][];
        for (int i = 0; i < keys.length; i++) this.keys[i] = ('"' + keys[i]).getBytes(StandardCharsets.US_ASCII);
    }

    /** Copies the text fields' string values of one relayed delta event (wherever they are nested). */
    public void add(SseEvent e) {
        byte[] b = e.dataArray();
        int end = e.dataOffset() + e.dataLength();
        int from = e.dataOffset();
        for (int at; (at = e.dataIndexOf(KEY_END, from)) >= 0; ) {
            int value = at + KEY_END.length;
            while (value < end && b[value] == ' ') value++;
            from = value;
            if (value == end || b[value] != '"' || !textKey(b, e.dataOffset(), at)) continue;
            int close = stringEnd(b, value + 1, end);
            if (close < 0) return;
            keep(b, value + 1, close - value - 1);
            from = close + 1;
        }
    }

    /** Whether the key whose closing quote is at {@code quote} is one of the text fields. */
    private boolean textKey(byte[] b, int start, int quote) {
        for (byte[] key : keys) {
            int keyStart = quote - key.length;
            if (keyStart >= start && Arrays.equals(b, keyStart, quote, key, 0, key.length)) return true;
        }
        return false;
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
