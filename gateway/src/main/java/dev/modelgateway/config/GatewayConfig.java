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
 * @param dropRefusedHostedTools Responses API: drop a hosted tool the model refuses (with a warning) instead of a 400
 */
public record GatewayConfig(String host, int port, String masterKey, Map<Vendor, VendorEndpoint> vendors,
                            Map<String, String> upstreamOverrides, String databaseUrl, String redisUrl,
                            MediaPolicy media, ServerLimits limits, boolean dropRefusedHostedTools) {

    public GatewayConfig {
        vendors = Map.copyOf(new EnumMap<>(vendors));
        upstreamOverrides = Map.copyOf(upstreamOverrides);
        if (limits == null) limits = ServerLimits.DEFAULT;
    }

    /** Refusing hosted tools a model does not take (the default). */
    public GatewayConfig(String host, int port, String masterKey, Map<Vendor, VendorEndpoint> vendors,
                         Map<String, String> upstreamOverrides, String databaseUrl, String redisUrl, MediaPolicy media,
                         ServerLimits limits) {
        this(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, limits, false);
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
        return new GatewayConfig(host, newPort, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, limits,
                dropRefusedHostedTools);
    }

    public GatewayConfig withMedia(MediaPolicy newMedia) {
        return new GatewayConfig(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, newMedia, limits,
                dropRefusedHostedTools);
    }

    public GatewayConfig withLimits(ServerLimits newLimits) {
        return new GatewayConfig(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, newLimits,
                dropRefusedHostedTools);
    }

    public GatewayConfig withVendor(VendorEndpoint endpoint) {
        Map<Vendor, VendorEndpoint> copy = new EnumMap<>(vendors);
        copy.put(endpoint.vendor(), endpoint);
        return new GatewayConfig(host, port, masterKey, copy, upstreamOverrides, databaseUrl, redisUrl, media, limits,
                dropRefusedHostedTools);
    }

    public GatewayConfig withDropRefusedHostedTools(boolean drop) {
        return new GatewayConfig(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, limits, drop);
    }
}
