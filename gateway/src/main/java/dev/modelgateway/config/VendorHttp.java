package dev.modelgateway.config;

import java.util.Locale;

/** {@code vendors.<id>.http_version}: the HTTP version the gateway speaks to a vendor deployment. */
public enum VendorHttp {
    /**
     * HTTPS: HTTP/2 when the vendor offers it by ALPN, else HTTP/1.1 (all four vendors' public APIs offer h2);
     * cleartext HTTP: HTTP/1.1.
     */
    AUTO,
    /** HTTP/1.1 only. */
    HTTP1,
    /** HTTP/2: by ALPN over HTTPS, with prior knowledge (h2c, RFC 9113 §3.3) over cleartext HTTP. */
    HTTP2;

    /** As the configuration writes it: {@code auto}, {@code 1.1} or {@code 2}. */
    public String written() {
        return switch (this) {
            case AUTO -> "auto";
            case HTTP1 -> "1.1";
            case HTTP2 -> "2";
        };
    }

    public static VendorHttp parse(String setting, String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "auto" -> AUTO;
            case "1.1", "http/1.1", "http1" -> HTTP1;
            case "2", "h2", "http/2", "http2" -> HTTP2;
            default -> throw new IllegalArgumentException(setting + " must be auto, 1.1 or 2, got '" + value + "'");
        };
    }
}
