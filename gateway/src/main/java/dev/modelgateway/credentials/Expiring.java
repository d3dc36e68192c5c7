package dev.modelgateway.credentials;

import java.time.Instant;

/**
 * A credential and when it stops being valid.
 *
 * @param expiresAt null for a credential that does not expire (static keys)
 */
public record Expiring<T>(T value, Instant expiresAt) {
    public static <T> Expiring<T> forever(T value) {
        return new Expiring<>(value, null);
    }
}
