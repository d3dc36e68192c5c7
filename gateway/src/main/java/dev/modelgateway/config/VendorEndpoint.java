package dev.modelgateway.config;

/** Where and with which credential the gateway reaches one vendor. {@code apiKey} may be null. */
public record VendorEndpoint(Vendor vendor, String baseUrl, String apiKey) {
    public VendorEndpoint {
        while (baseUrl.endsWith("/")) baseUrl = baseUrl.substring(0, baseUrl.length() - 1);
    }
}
