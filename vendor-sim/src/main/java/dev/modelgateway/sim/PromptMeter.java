package dev.modelgateway.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * Measures a prompt while a vendor adapter walks it in the vendor's cache order (tools, system, messages).
 * Besides the character count it keeps a running hash so that a prefix can be recognised later: at each
 * message boundary (implicit caching) and at each {@code cache_control} marker (Anthropic explicit caching).
 */
final class PromptMeter {

    record Point(long chars, long hash, String ttl) {
        int tokens() {
            return Tokens.ofChars(chars);
        }
    }

    private static final long FNV_OFFSET = 0xcbf29ce484222325L, FNV_PRIME = 0x100000001b3L;

    private long chars;
    private long hash = FNV_OFFSET;
    private final List<Point> boundaries = new ArrayList<>();
    private final List<Point> markers = new ArrayList<>();

    PromptMeter(String model) {
        mix(model);
    }

    /** Counts text towards the prompt and the prefix identity. */
    void text(String s) {
        if (s == null) return;
        chars += s.length();
        mix(s);
    }

    /** Mixes structure (roles, block types, image bytes) into the identity without counting tokens. */
    void shape(String s) {
        if (s != null) mix(s);
    }

    void endMessage() {
        boundaries.add(new Point(chars, hash, null));
    }

    void cacheMarker(String ttl) {
        markers.add(new Point(chars, hash, "1h".equals(ttl) ? "1h" : "5m"));
    }

    long chars() {
        return chars;
    }

    int tokens() {
        return Tokens.ofChars(chars);
    }

    List<Point> boundaries() {
        return boundaries;
    }

    List<Point> markers() {
        return markers;
    }

    private void mix(String s) {
        long h = hash;
        for (int i = 0, n = s.length(); i < n; i++) {
            h ^= s.charAt(i);
            h *= FNV_PRIME;
        }
        h ^= 0x1F; // unit separator so ("ab","c") and ("a","bc") differ
        hash = h * FNV_PRIME;
    }
}
