package dev.modelgateway.config;

/**
 * Where and with which credential the gateway reaches one vendor, and how many connections it keeps to it.
 * {@code apiKey} may be null.
 */
public record VendorEndpoint(Vendor vendor, String baseUrl, String apiKey, VendorPool pool) {
    public VendorEndpoint {
        while (baseUrl.endsWith("/")) baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
        if (pool == null) pool = VendorPool.DEFAULT;
    }

    /** With the default connection pool. */
    public VendorEndpoint(Vendor vendor, String baseUrl, String apiKey) {
        this(vendor, baseUrl, apiKey, VendorPool.DEFAULT);
    }
}
