package dev.modelgateway.accounts.keys;

import java.time.Instant;

/**
 * A key found by a secret a caller presented: its current secret, or the previous one a rotation left it
 * ({@code previousSecret}), which is accepted only until {@link PreviousSecret#acceptedUntil}.
 */
public record KeyMatch(StoredKey key, boolean previousSecret) {

    /** Whether the presented secret is accepted at {@code now} (the key's other checks aside). */
    public boolean acceptedAt(Instant now) {
        return !previousSecret || key.previous().acceptedAt(now);
    }
}
