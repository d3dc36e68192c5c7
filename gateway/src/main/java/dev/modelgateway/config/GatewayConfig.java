package dev.modelgateway.config;

import java.util.EnumMap;
import java.util.Map;

/**
 * Everything the gateway needs to start. Built by {@link ConfigLoader} from YAML plus environment.
 *
 * @param upstreamOverrides public model id → upstream model id chosen by the operator
 * @param databaseUrl JDBC URL of the accounts store
 * @param redisUrl shared counters for several instances; null keeps them in memory
 * @param media how media URLs are downloaded for vendors that need the bytes
 * @param limits the HTTP server's timeouts, connection caps and body budget
 */
public record GatewayConfig(String host, int port, String masterKey, Map<Vendor, VendorEndpoint> vendors,
                            Map<String, String> upstreamOverrides, String databaseUrl, String redisUrl,
                            MediaPolicy media, ServerLimits limits) {

    public GatewayConfig {
        vendors = Map.copyOf(new EnumMap<>(vendors));
        upstreamOverrides = Map.copyOf(upstreamOverrides);
        if (limits == null) limits = ServerLimits.DEFAULT;
    }

    /** With the default server limits. */
    public GatewayConfig(String host, int port, String masterKey, Map<Vendor, VendorEndpoint> vendors,
                         Map<String, String> upstreamOverrides, String databaseUrl, String redisUrl, MediaPolicy media) {
        this(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, ServerLimits.DEFAULT);
    }

    public VendorEndpoint vendor(Vendor v) {
        return vendors.get(v);
    }

    public GatewayConfig withPort(int newPort) {
        return new GatewayConfig(host, newPort, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, limits);
    }

    public GatewayConfig withMedia(MediaPolicy newMedia) {
        return new GatewayConfig(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, newMedia, limits);
    }

    public GatewayConfig withLimits(ServerLimits newLimits) {
        return new GatewayConfig(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, newLimits);
    }

    public GatewayConfig withVendor(VendorEndpoint endpoint) {
        Map<Vendor, VendorEndpoint> copy = new EnumMap<>(vendors);
        copy.put(endpoint.vendor(), endpoint);
        return new GatewayConfig(host, port, masterKey, copy, upstreamOverrides, databaseUrl, redisUrl, media, limits);
    }
}
