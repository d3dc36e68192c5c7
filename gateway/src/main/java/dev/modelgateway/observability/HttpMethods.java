package dev.modelgateway.observability;

import java.util.Set;

/**
 * The {@code http.request.method} a metric or a span may carry (OpenTelemetry HTTP conventions): one of the methods
 * of RFC 9110 and PATCH, else {@value #OTHER}. The method token is the caller's choice: as a label it would make a
 * series of every token anyone sends, without a key, and keep each for the life of the process.
 */
final class HttpMethods {
    static final String OTHER = "_OTHER";
    private static final Set<String> KNOWN = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE",
            "PATCH");

    private HttpMethods() {
    }

    /** {@code method} when known (methods are case-sensitive), {@value #OTHER} otherwise. */
    static String known(String method) {
        return KNOWN.contains(method) ? method : OTHER;
    }
}
