package dev.modelgateway.accounts.ledger;

import dev.modelgateway.accounts.UsageRecord;
import dev.modelgateway.canonical.Usage;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * A ledger row as one line of the {@link LedgerJournal}: a JSON object ending in {@code \n}. Written on the event
 * loop for every answered call, so it is encoded straight into a reused byte buffer, without the map and the
 * Strings a {@link JsonObject} would build; it is read back, once, by the replay, with
 * a JsonObject. Not thread-safe: one per appending thread.
 */
final class JournalLine {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private byte[] buf = new byte[512];
    private int len;

    /** Encodes {@code e}; the line is {@link #bytes()}[0, {@link #length()}) until the next call. */
    JournalLine encode(LedgerEntry e) {
        UsageRecord r = e.record();
        Usage u = e.usage();
        len = 0;
        put('{');
        field("id", e.id()).field("trace", r.traceId()).field("key", e.keyId()).field("team", r.teamId())
                .field("model", r.publicModel()).field("answered", r.answeredModel()).field("vendor", r.vendor())
                .field("deployment", r.deployment()).field("user", r.userId())
                .field("in", u.inputTokens()).field("cr", u.cacheReadTokens()).field("cw5", u.cacheWrite5mTokens())
                .field("cw1", u.cacheWrite1hTokens()).field("out", u.outputTokens()).field("rs", u.reasoningTokens())
                .field("ws", u.webSearchCalls()).field("attempts", r.attempts()).field("status", r.status())
                .field("latency", r.latencyMs()).field("ttft", r.timeToFirstTokenMs()).field("at", e.at().toEpochMilli())
                .field("cost", e.costE10()).field("prices", e.priceVersion()).field("unknown", e.priceUnknown());
        buf[len - 1] = '}'; // over the last field's comma
        put('\n');
        return this;
    }

    byte[] bytes() {
        return buf;
    }

    int length() {
        return len;
    }

    /** The row of a line, as {@link #encode} wrote it (the trailing newline optional). */
    static LedgerEntry decode(String line) {
        JsonObject j = new JsonObject(line);
        Usage u = new Usage(j.getLong("in"), j.getLong("cr"), j.getLong("cw5"), j.getLong("cw1"), j.getLong("out"),
                j.getLong("rs"), j.getLong("ws"));
        Instant at = Instant.ofEpochMilli(j.getLong("at"));
        UsageRecord r = new UsageRecord(j.getString("trace"), j.getString("key"), j.getString("model"),
                j.getString("answered"), j.getString("vendor"), u, j.getInteger("attempts"), j.getInteger("status"),
                j.getLong("latency"), j.getLong("ttft"), at, j.getString("team"), j.getString("deployment"),
                j.getString("user")); // absent in lines journaled before the ledger had users: null
        return new LedgerEntry(j.getString("id"), r, u, j.getString("key"), at, j.getLong("cost"), j.getString("prices"),
                j.getBoolean("unknown"), null);
    }

    private JournalLine field(String name, String value) {
        name(name);
        if (value == null) {
            ascii("null");
        } else {
            put('"');
            string(value);
            put('"');
        }
        put(',');
        return this;
    }

    private JournalLine field(String name, Long value) {
        return value == null ? field(name, (String) null) : field(name, value.longValue());
    }

    private JournalLine field(String name, long value) {
        name(name);
        number(value);
        put(',');
        return this;
    }

    private JournalLine field(String name, boolean value) {
        name(name);
        ascii(value ? "true" : "false");
        put(',');
        return this;
    }

    private void name(String name) {
        put('"');
        ascii(name);
        put('"');
        put(':');
    }

    /**
     * A string's JSON escape (RFC 8259 §7) over its UTF-8 bytes: quote, backslash and control characters are
     * escaped, and no byte of a multi-byte character can be one of them, so the rest is copied as it is.
     */
    private void string(String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        room(utf8.length * 6); // every byte escaped at worst
        for (byte b : utf8) {
            if (b == '"' || b == '\\') {
                buf[len++] = '\\';
                buf[len++] = b;
            } else if (b >= 0 && b < 0x20) {
                ascii("\\u00");
                buf[len++] = HEX[b >> 4];
                buf[len++] = HEX[b & 0xf];
            } else {
                buf[len++] = b;
            }
        }
    }

    /** A long's decimal digits, without the String {@link Long#toString} would make. */
    private void number(long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                ascii(Long.toString(v));
                return;
            }
            put('-');
            v = -v;
        }
        room(19);
        int start = len;
        do {
            buf[len++] = (byte) ('0' + v % 10);
            v /= 10;
        } while (v > 0);
        for (int i = start, j = len - 1; i < j; i++, j--) {
            byte t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
        }
    }

    private void ascii(String s) {
        room(s.length());
        for (int i = 0; i < s.length(); i++) buf[len++] = (byte) s.charAt(i);
    }

    private void put(char c) {
        room(1);
        buf[len++] = (byte) c;
    }

    private void room(int n) {
        if (len + n > buf.length) buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
    }
}
