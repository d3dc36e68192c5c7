package dev.modelgateway.sim;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers prompt prefixes seen by this simulator instance and turns a measured prompt into cache usage.
 * Explicit (Anthropic cache_control) and implicit (OpenAI/Gemini/DashScope) caches are kept apart.
 */
final class CacheLedger {

    /** Token usage of a prompt: total includes cached and written tokens. */
    record Usage(int total, int cacheRead, int write5m, int write1h) {
        int uncached() {
            return total - cacheRead - write5m - write1h;
        }
    }

    static final int IMPLICIT_MIN_TOKENS = 1024;
    private static final long EXPLICIT_TAG = 0x5A5A5A5A5A5A5A5AL;

    private final Set<Long> explicit = ConcurrentHashMap.newKeySet();
    private final Set<Long> implicit = ConcurrentHashMap.newKeySet();

    /**
     * Anthropic semantics: the prefix up to the last cache marker is cacheable. The longest marker prefix
     * seen before is a cache read; the segments after it are cache writes, split by each marker's TTL.
     */
    Usage explicitUsage(PromptMeter m) {
        List<PromptMeter.Point> markers = m.markers();
        int total = m.tokens();
        if (markers.isEmpty()) return new Usage(total, 0, 0, 0);
        int hit = -1;
        for (int i = markers.size() - 1; i >= 0; i--) {
            if (explicit.contains(markers.get(i).hash() ^ EXPLICIT_TAG)) {
                hit = i;
                break;
            }
        }
        int read = hit >= 0 ? markers.get(hit).tokens() : 0;
        int w5 = 0, w1 = 0, prev = read;
        for (int i = hit + 1; i < markers.size(); i++) {
            PromptMeter.Point p = markers.get(i);
            int seg = Math.max(0, p.tokens() - prev);
            if ("1h".equals(p.ttl())) w1 += seg; else w5 += seg;
            prev = Math.max(prev, p.tokens());
        }
        for (PromptMeter.Point p : markers) explicit.add(p.hash() ^ EXPLICIT_TAG);
        return new Usage(total, read, w5, w1);
    }

    /**
     * Implicit caching: the longest message-boundary prefix (never the whole prompt) that was seen before
     * and is at least 1024 tokens counts as cached. Every boundary, including the whole prompt, is remembered.
     */
    Usage implicitUsage(PromptMeter m) {
        List<PromptMeter.Point> bounds = m.boundaries();
        int cached = 0;
        for (int i = bounds.size() - 2; i >= 0; i--) {
            PromptMeter.Point p = bounds.get(i);
            if (p.tokens() < IMPLICIT_MIN_TOKENS) break;
            if (implicit.contains(p.hash())) {
                cached = p.tokens();
                break;
            }
        }
        for (PromptMeter.Point p : bounds) implicit.add(p.hash());
        return new Usage(m.tokens(), cached, 0, 0);
    }

    void clear() {
        explicit.clear();
        implicit.clear();
    }
}
