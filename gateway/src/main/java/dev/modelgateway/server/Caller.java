package dev.modelgateway.server;

/** The authenticated platform key behind a request. */
public record Caller(String keyId, boolean master) {
}
