package dev.modelgateway.http;

import java.util.concurrent.ThreadLocalRandom;

/** Request trace ids: 32 lower-case hex digits (128 random bits), cheap enough for every request. */
public final class TraceId {
    public static final String HEADER = "X-Platform-Trace-Id";
    static final String CONTEXT_KEY = "traceId";
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TraceId() {
    }

    public static String next() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        char[] out = new char[32];
        fill(out, 0, r.nextLong());
        fill(out, 16, r.nextLong());
        return new String(out);
    }

    private static void fill(char[] out, int offset, long bits) {
        for (int i = 15; i >= 0; i--) {
            out[offset + i] = HEX[(int) (bits & 0xF)];
            bits >>>= 4;
        }
    }
}
