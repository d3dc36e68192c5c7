package dev.modelgateway.config;

/**
 * The connections the gateway keeps to one vendor deployment, on each event loop (docs/configuration.md,
 * "Vendor connection pools"). A call takes one connection for its whole answer over HTTP/1.1 (a stream for its
 * whole length), one stream of a shared connection over HTTP/2; when all are busy it waits in a bounded queue,
 * and past that queue, or past its wait, it is the gateway's own overload (503 {@code gateway_overloaded}),
 * never the vendor's failure.
 *
 * @param maxConnections calls in flight to the deployment at once, per event loop: over HTTP/1.1 each holds a
 *                       connection; over HTTP/2 up to {@link #STREAMS_PER_CONNECTION} share one
 * @param maxQueued      calls waiting for one of them, per event loop; more are refused at once
 * @param http           which HTTP version the gateway speaks to the deployment
 * @param caFile         PEM certificates the deployment's TLS certificate must chain to, instead of the JDK's
 *                       trusted roots (a private vendor endpoint); null for the JDK's
 */
public record VendorPool(int maxConnections, int maxQueued, VendorHttp http, String caFile) {
    /**
     * Sized for thousands of concurrent streams (issue 13): a limit, not an allocation; the real vendors speak
     * HTTP/2, so 16,384 calls share at most 164 connections.
     */
    public static final VendorPool DEFAULT = new VendorPool(16_384, 16_384, VendorHttp.AUTO, null);
    /**
     * Streams per HTTP/2 connection before the pool opens another: the limit most HTTP/2 servers advertise
     * (RFC 9113 §6.5.2 recommends at least 100); a vendor advertising fewer is obeyed.
     */
    public static final int STREAMS_PER_CONNECTION = 100;

    public VendorPool {
        if (maxConnections < 1 || maxConnections > 100_000) {
            throw new IllegalArgumentException("max_connections must be between 1 and 100000, got " + maxConnections);
        }
        if (maxQueued < 0 || maxQueued > 1_000_000) {
            throw new IllegalArgumentException("max_queued must be between 0 and 1000000, got " + maxQueued);
        }
        if (http == null) http = VendorHttp.AUTO;
    }

    /** Default protocol and trust. */
    public VendorPool(int maxConnections, int maxQueued) {
        this(maxConnections, maxQueued, VendorHttp.AUTO, null);
    }

    /** HTTP/2 connections needed for {@link #maxConnections()} concurrent streams. */
    public int http2Connections() {
        return (maxConnections + STREAMS_PER_CONNECTION - 1) / STREAMS_PER_CONNECTION;
    }
}
