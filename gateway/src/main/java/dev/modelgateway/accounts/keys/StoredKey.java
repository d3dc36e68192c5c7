package dev.modelgateway.accounts.keys;

import dev.modelgateway.accounts.ApiKey;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A key row: its settings and bookkeeping, never its secret; {@code team} is the row of its team, if any;
 * {@code previous} the secret its last rotation replaced, null when it was never rotated; {@code ownerUserId} the
 * user (or admin key) whose own key it is, which a principal with only "own" reach may manage (docs/identity/roles.md).
 */
public record StoredKey(String id, String prefix, KeySettings settings, boolean disabled, Instant createdAt, Team team,
                        PreviousSecret previous, String ownerUserId) {

    /** A key that belongs to no user. */
    public StoredKey(String id, String prefix, KeySettings settings, boolean disabled, Instant createdAt, Team team,
                     PreviousSecret previous) {
        this(id, prefix, settings, disabled, createdAt, team, previous, null);
    }

    StoredKey(String id, String prefix, KeySettings settings, boolean disabled, Instant createdAt, String ownerUserId) {
        this(id, prefix, settings, disabled, createdAt, null, null, ownerUserId);
    }

    public ApiKey toApiKey() {
        return new ApiKey(id, settings.name(), settings.allowedModels(), settings.rpm(), settings.tpm(),
                settings.modelLimits(), settings.budgetUsd(), settings.expiresAt(), settings.maxConcurrent(), disabled, false,
                team, settings.budgetPeriod(), null, ownerUserId);
    }

    public BigDecimal budgetUsd() {
        return settings.budgetUsd();
    }

    /** The previous secret while it is still accepted at {@code now}; null otherwise. */
    public PreviousSecret previousAcceptedAt(Instant now) {
        return previous != null && previous.acceptedAt(now) ? previous : null;
    }
}
