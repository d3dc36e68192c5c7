package dev.modelgateway.config;

/**
 * How the gateway downloads media that a caller gave by URL when the chosen vendor needs the bytes.
 *
 * @param allowPrivate also fetch from loopback, private, link-local and similar addresses; off in production
 *                     (SSRF), on for tests and the demo, whose simulator listens on loopback
 * @param maxBytes     largest medium accepted
 * @param timeoutMs    budget for one medium, redirects included
 * @param maxRedirects redirects followed, each one checked like the first URL
 */
public record MediaPolicy(boolean allowPrivate, long maxBytes, long timeoutMs, int maxRedirects) {
    public static final MediaPolicy DEFAULT = new MediaPolicy(false, 20L * 1024 * 1024, 10_000, 3);

    public MediaPolicy {
        if (maxBytes <= 0) throw new IllegalArgumentException("media.max_bytes must be positive, got " + maxBytes);
        if (timeoutMs <= 0) throw new IllegalArgumentException("media.timeout_ms must be positive, got " + timeoutMs);
        if (maxRedirects < 0) throw new IllegalArgumentException("media.max_redirects must be >= 0, got " + maxRedirects);
    }

    public MediaPolicy withAllowPrivate(boolean allow) {
        return new MediaPolicy(allow, maxBytes, timeoutMs, maxRedirects);
    }
}
