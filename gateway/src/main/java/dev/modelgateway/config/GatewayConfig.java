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
 * @param tls the certificate and key to serve TLS with; null serves cleartext HTTP
 */
public record GatewayConfig(String host, int port, String masterKey, Map<Vendor, VendorEndpoint> vendors,
                            Map<String, String> upstreamOverrides, String databaseUrl, String redisUrl,
                            MediaPolicy media, ServerLimits limits, ServerTls tls) {

    public GatewayConfig {
        vendors = Map.copyOf(new EnumMap<>(vendors));
        upstreamOverrides = Map.copyOf(upstreamOverrides);
        if (limits == null) limits = ServerLimits.DEFAULT;
    }

    /** Cleartext. */
    public GatewayConfig(String host, int port, String masterKey, Map<Vendor, VendorEndpoint> vendors,
                         Map<String, String> upstreamOverrides, String databaseUrl, String redisUrl, MediaPolicy media,
                         ServerLimits limits) {
        this(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, limits, null);
    }

    /** Cleartext, with the default server limits. */
    public GatewayConfig(String host, int port, String masterKey, Map<Vendor, VendorEndpoint> vendors,
                         Map<String, String> upstreamOverrides, String databaseUrl, String redisUrl, MediaPolicy media) {
        this(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, ServerLimits.DEFAULT);
    }

    public VendorEndpoint vendor(Vendor v) {
        return vendors.get(v);
    }

    public GatewayConfig withPort(int newPort) {
        return new GatewayConfig(host, newPort, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, limits, tls);
    }

    public GatewayConfig withMedia(MediaPolicy newMedia) {
        return new GatewayConfig(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, newMedia, limits, tls);
    }

    public GatewayConfig withLimits(ServerLimits newLimits) {
        return new GatewayConfig(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, newLimits, tls);
    }

    public GatewayConfig withTls(ServerTls newTls) {
        return new GatewayConfig(host, port, masterKey, vendors, upstreamOverrides, databaseUrl, redisUrl, media, limits, newTls);
    }

    /** The scheme callers use: https when the gateway serves TLS. */
    public String scheme() {
        return tls != null ? "https" : "http";
    }

    public GatewayConfig withVendor(VendorEndpoint endpoint) {
        Map<Vendor, VendorEndpoint> copy = new EnumMap<>(vendors);
        copy.put(endpoint.vendor(), endpoint);
        return new GatewayConfig(host, port, masterKey, copy, upstreamOverrides, databaseUrl, redisUrl, media, limits, tls);
    }
}
