package dev.modelgateway.accounts.keys;

import java.time.Instant;

/**
 * The secret a key had before its last rotation (docs/operations/key-rotation.md): only its display prefix is kept here
 * (its hash stays in the table), and the instant from which it is refused.
 */
public record PreviousSecret(String prefix, Instant acceptedUntil) {

    /** Whether it is still accepted at {@code now}: refused from {@link #acceptedUntil} on. */
    public boolean acceptedAt(Instant now) {
        return now.isBefore(acceptedUntil);
    }
}
