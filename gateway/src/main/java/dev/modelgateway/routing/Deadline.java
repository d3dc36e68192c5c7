package dev.modelgateway.routing;

/**
 * The server-side time budget of one call (docs/platform-options.md, "Timeout"). It bounds the whole
 * attempt plan, waits between attempts included, up to the complete JSON answer or, for a stream, up to
 * the first event sent to the caller; after that event it bounds each silence between two upstream events.
 *
 * @param expiresAtNanos {@link System#nanoTime()} at which the plan must have answered
 * @param idleMs         the longest silence tolerated from a vendor, before and during a stream
 */
public record Deadline(long expiresAtNanos, long idleMs) {
    /** Applies when the caller sets no timeout, or 0; equal to the largest timeout a caller may ask for. */
    public static final long DEFAULT_TIMEOUT_MS = 300_000;

    /** @param startNanos when the gateway received the request */
    public static Deadline of(PlatformOptions options, long startNanos) {
        Double t = options.timeoutSeconds();
        long ms = t == null || t == 0 ? DEFAULT_TIMEOUT_MS : Math.max(1, Math.round(t * 1000));
        return new Deadline(startNanos + ms * 1_000_000, ms);
    }

    /** A fixed budget from now, for endpoints without platform_options (images, audio, embeddings). */
    public static Deadline ofMillis(long ms) {
        return new Deadline(System.nanoTime() + ms * 1_000_000, ms);
    }

    public long remainingMs() {
        return Math.max(0, (expiresAtNanos - System.nanoTime()) / 1_000_000);
    }

    public boolean expired() {
        return System.nanoTime() - expiresAtNanos >= 0;
    }
}
