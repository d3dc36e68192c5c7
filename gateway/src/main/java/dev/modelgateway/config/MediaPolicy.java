package dev.modelgateway.config;

/**
 * How the gateway downloads media that a caller gave by URL when the chosen vendor needs the bytes.
 *
 * @param allowPrivate      also fetch from loopback, private, link-local and similar addresses; off in production
 *                          (SSRF), on for tests and the demo, whose simulator listens on loopback
 * @param maxBytes          largest medium accepted
 * @param timeoutMs         budget for one medium, redirects included
 * @param maxRedirects      redirects followed, each one checked like the first URL
 * @param maxItems          most media URLs downloaded for one request (a request with more is a 400)
 * @param maxTotalBytes     most bytes downloaded for one request, all media together (more is a 400)
 * @param maxConcurrent     downloads running at once for one request; the others wait their turn
 * @param maxConcurrentAll  downloads running at once in the whole process; beyond it a request is refused (503)
 */
public record MediaPolicy(boolean allowPrivate, long maxBytes, long timeoutMs, int maxRedirects,
                          int maxItems, long maxTotalBytes, int maxConcurrent, int maxConcurrentAll) {
    public static final int DEFAULT_MAX_ITEMS = 20;
    public static final long DEFAULT_MAX_TOTAL_BYTES = 50L * 1024 * 1024;
    public static final int DEFAULT_MAX_CONCURRENT = 4;
    public static final int DEFAULT_MAX_CONCURRENT_ALL = 64;
    public static final MediaPolicy DEFAULT = new MediaPolicy(false, 20L * 1024 * 1024, 10_000, 3);

    public MediaPolicy {
        if (maxBytes <= 0) throw new IllegalArgumentException("media.max_bytes must be positive, got " + maxBytes);
        if (timeoutMs <= 0) throw new IllegalArgumentException("media.timeout_seconds must be positive, got " + timeoutMs + " ms");
        if (maxRedirects < 0) throw new IllegalArgumentException("media.max_redirects must be >= 0, got " + maxRedirects);
        if (maxItems <= 0) throw new IllegalArgumentException("media.max_items must be positive, got " + maxItems);
        if (maxTotalBytes <= 0) throw new IllegalArgumentException("media.max_total_bytes must be positive, got " + maxTotalBytes);
        if (maxConcurrent <= 0) throw new IllegalArgumentException("media.max_concurrent must be positive, got " + maxConcurrent);
        if (maxConcurrentAll <= 0) {
            throw new IllegalArgumentException("media.max_concurrent_process must be positive, got " + maxConcurrentAll);
        }
    }

    /** The per-request and per-process limits at their defaults. */
    public MediaPolicy(boolean allowPrivate, long maxBytes, long timeoutMs, int maxRedirects) {
        this(allowPrivate, maxBytes, timeoutMs, maxRedirects, DEFAULT_MAX_ITEMS, DEFAULT_MAX_TOTAL_BYTES,
                DEFAULT_MAX_CONCURRENT, DEFAULT_MAX_CONCURRENT_ALL);
    }

    public MediaPolicy withAllowPrivate(boolean allow) {
        return new MediaPolicy(allow, maxBytes, timeoutMs, maxRedirects, maxItems, maxTotalBytes, maxConcurrent, maxConcurrentAll);
    }

    public MediaPolicy withRequestLimits(int items, long totalBytes, int concurrent, int concurrentAll) {
        return new MediaPolicy(allowPrivate, maxBytes, timeoutMs, maxRedirects, items, totalBytes, concurrent, concurrentAll);
    }
}
