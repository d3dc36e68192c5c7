package dev.modelgateway.config;

import java.util.Map;

/**
 * Where and with which credential the gateway reaches one upstream, and how many connections it keeps to it: one
 * key of one provider (docs/configuration.md, "Providers"), for one deployment when routed. {@code apiKey} may be
 * null (not configured, or a provider that needs none).
 *
 * @param id               the unit whose health is tracked (its circuit breaker and cooldown): by default the
 *                         vendor and base URL; a routed deployment's own id otherwise
 * @param provider         the provider's name, for messages and the access log
 * @param headers          extra headers sent on every request (the operator's)
 * @param pathPrefix       inserted between the base URL's path and the request path (an Azure deployment's
 *                         {@code /openai/deployments/{name}}); empty for the others
 * @param query            appended to every request URI (Azure's {@code api-version=...}); empty for the others
 * @param connectTimeoutMs the longest wait for a connection (pool queue and TCP connect together)
 * @param cloud            a deployment on a cloud (Bedrock, Vertex…): its account, API and capabilities; null for a
 *                         vendor's own API
 */
public record VendorEndpoint(Vendor vendor, String baseUrl, String apiKey, VendorPool pool, String id, String provider,
                             ProviderType type, Map<String, String> headers, String pathPrefix, String query,
                             int connectTimeoutMs, CloudTarget cloud) {
    /** Vert.x's wait for a connection before this setting existed. */
    public static final int DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

    public VendorEndpoint {
        while (baseUrl.endsWith("/")) baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
        if (pool == null) pool = VendorPool.DEFAULT;
        if (type == null) type = ProviderType.of(vendor);
        if (provider == null) provider = vendor.id();
        if (id == null) id = vendor.id() + " " + ShownUrl.of(baseUrl);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
        if (pathPrefix == null) pathPrefix = "";
        if (query == null) query = "";
        if (connectTimeoutMs <= 0) connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;
    }

    /** One of the four built-in vendors, with its connection pool. */
    public VendorEndpoint(Vendor vendor, String baseUrl, String apiKey, VendorPool pool) {
        this(vendor, baseUrl, apiKey, pool, null, null, null, null, null, null, 0, null);
    }

    /** With the default connection pool. */
    public VendorEndpoint(Vendor vendor, String baseUrl, String apiKey) {
        this(vendor, baseUrl, apiKey, VendorPool.DEFAULT);
    }

    /** False when the provider needs a key and has none: its calls are refused before any I/O. */
    public boolean configured() {
        return apiKey != null || !type.needsKey();
    }

    /** Whether this deployment calls Bedrock's Converse API rather than its model vendor's own wire format. */
    public boolean converse() {
        return cloud != null && cloud.api() == DeploymentApi.CONVERSE;
    }

    /** The key masked for display: its last four characters at most. */
    public static String mask(String key) {
        if (key == null) return null;
        return key.length() <= 8 ? "****" : "****" + key.substring(key.length() - 4);
    }
}
