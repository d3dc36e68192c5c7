package dev.modelgateway.config;

/**
 * The connections the gateway keeps to one vendor deployment, on each event loop (docs/configuration.md,
 * "Vendor connection pools"). A call takes one connection for its whole answer (a stream for its whole length);
 * when all are busy it waits in a bounded queue, and past that queue, or past its wait, it is the gateway's own
 * overload (503 {@code gateway_overloaded}), never the vendor's failure.
 *
 * @param maxConnections HTTP/1.1 connections open at once to the deployment, per event loop
 * @param maxQueued      calls waiting for one of them, per event loop; more are refused at once
 */
public record VendorPool(int maxConnections, int maxQueued) {
    /** Vert.x's pool sized for a gateway: 512 connections and 4,096 waiting calls per event loop. */
    public static final VendorPool DEFAULT = new VendorPool(512, 4096);

    public VendorPool {
        if (maxConnections < 1 || maxConnections > 100_000) {
            throw new IllegalArgumentException("max_connections must be between 1 and 100000, got " + maxConnections);
        }
        if (maxQueued < 0 || maxQueued > 1_000_000) {
            throw new IllegalArgumentException("max_queued must be between 0 and 1000000, got " + maxQueued);
        }
    }
}
