package dev.modelgateway.config;

/**
 * The HTTP server's protections against callers without a key, and its caps on what vendors send back
 * (docs/configuration.md, "Server limits").
 *
 * @param idleTimeoutSeconds        a connection on which nothing is read or written for this long is closed;
 *                                  above the longest call deadline (300 s), so a call in progress is never cut,
 *                                  and every SSE event written resets it
 * @param requestHeadTimeoutSeconds a connection must deliver a complete request head within this long of
 *                                  opening, or of its previous response (slow headers, idle keep-alive)
 * @param bodyReadTimeoutSeconds    an accepted request's body must have arrived whole within this long
 * @param maxConnectionsPerClient   open connections from one client address; 0: no cap (behind a proxy)
 * @param maxConnections            open connections in total, across all event loops
 * @param maxBufferedBodyBytes      request bodies held in memory at once, in total; 0: a quarter of the
 *                                  JVM's maximum heap
 * @param vendorAnswers             answer size, stream duration and SSE event size caps on vendors' answers
 */
public record ServerLimits(long idleTimeoutSeconds, long requestHeadTimeoutSeconds, long bodyReadTimeoutSeconds,
                           int maxConnectionsPerClient, int maxConnections, long maxBufferedBodyBytes,
                           VendorAnswerLimits vendorAnswers) {

    /**
     * 16,384 open connections, or fewer when the heap could not hold that many streams: a slow stream holds
     * 20–24 KiB of heap while it runs, so one connection is given 30 KiB (docs/performance.md, "The JVM").
     * The launcher's 512 MiB heap (507 MiB usable: one survivor space is not counted) gives 16,384.
     */
    static int defaultMaxConnections(long maxHeapBytes) {
        return (int) Math.clamp(maxHeapBytes / (30 * 1024), 1_024, 16_384);
    }

    public static final ServerLimits DEFAULT = new ServerLimits(360, 30, 120, 256,
            defaultMaxConnections(Runtime.getRuntime().maxMemory()), 0);

    public ServerLimits {
        if (idleTimeoutSeconds < 0 || requestHeadTimeoutSeconds < 0 || bodyReadTimeoutSeconds < 0
                || maxConnectionsPerClient < 0 || maxConnections < 0 || maxBufferedBodyBytes < 0) {
            throw new IllegalArgumentException("server limits must not be negative");
        }
        if (vendorAnswers == null) vendorAnswers = VendorAnswerLimits.DEFAULT;
    }

    /** With the default caps on vendors' answers. */
    public ServerLimits(long idleTimeoutSeconds, long requestHeadTimeoutSeconds, long bodyReadTimeoutSeconds,
                        int maxConnectionsPerClient, int maxConnections, long maxBufferedBodyBytes) {
        this(idleTimeoutSeconds, requestHeadTimeoutSeconds, bodyReadTimeoutSeconds, maxConnectionsPerClient, maxConnections,
                maxBufferedBodyBytes, VendorAnswerLimits.DEFAULT);
    }

    /** {@link #maxBufferedBodyBytes()} with 0 resolved to a quarter of the maximum heap. */
    public long bufferedBodyBudget() {
        return maxBufferedBodyBytes > 0 ? maxBufferedBodyBytes : Runtime.getRuntime().maxMemory() / 4;
    }

    public ServerLimits withMaxBufferedBodyBytes(long n) {
        return new ServerLimits(idleTimeoutSeconds, requestHeadTimeoutSeconds, bodyReadTimeoutSeconds, maxConnectionsPerClient, maxConnections, n, vendorAnswers);
    }

    public ServerLimits withVendorAnswers(VendorAnswerLimits answers) {
        return new ServerLimits(idleTimeoutSeconds, requestHeadTimeoutSeconds, bodyReadTimeoutSeconds, maxConnectionsPerClient, maxConnections, maxBufferedBodyBytes, answers);
    }
}
