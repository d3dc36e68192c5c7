package dev.modelgateway.http;

import dev.modelgateway.accounts.ApiKey;

/** The authenticated platform key behind a request. */
public record Caller(ApiKey key) {
    public String keyId() {
        return key.id();
    }
}
