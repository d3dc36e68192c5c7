package dev.modelgateway.services;

import java.time.Duration;

/**
 * How much of the callers' conversations the gateway keeps (docs/endpoints.md, "Stored responses").
 *
 * @param maxResponseBytes one response with its input, as JSON: larger ones are not kept
 * @param maxTotalBytes    all responses together: past it the least recently used go first
 * @param idleExpiry       a response unused (neither continued, referred to nor retrieved) for this long is forgotten
 */
public record ResponseBounds(long maxResponseBytes, long maxTotalBytes, Duration idleExpiry) {
    /**
     * 32 MiB, vendor A's request limit and the gateway's own for a model call (server/BodyReader): a conversation
     * past it could not be continued anyway.
     */
    public static final long MAX_RESPONSE_BYTES = 32L * 1024 * 1024;
    /** Six hours unused: a conversation left for the day is sent again whole. */
    public static final Duration IDLE_EXPIRY = Duration.ofHours(6);
    /** In this process: the bound counts the JSON bytes really held in the heap. */
    static final ResponseBounds LOCAL = new ResponseBounds(MAX_RESPONSE_BYTES, 256L * 1024 * 1024, IDLE_EXPIRY);
    /** In PostgreSQL: on disk, shared by every instance. */
    static final ResponseBounds SHARED = new ResponseBounds(MAX_RESPONSE_BYTES, 4L * 1024 * 1024 * 1024, IDLE_EXPIRY);

    /** The refusal of a response over {@link #maxResponseBytes}, with the words the caller's warning uses. */
    public String tooLarge(long bytes) {
        return "the conversation (" + bytes / (1024 * 1024) + " MiB) is larger than the " + maxResponseBytes / (1024 * 1024)
                + " MiB the gateway keeps per response: it is not stored, send it whole in 'input' to continue";
    }
}
