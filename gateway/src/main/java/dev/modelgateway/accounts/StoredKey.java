package dev.modelgateway.accounts;

import java.math.BigDecimal;
import java.time.Instant;

/** A key row: its settings and bookkeeping, never its secret. */
record StoredKey(String id, String prefix, KeySettings settings, boolean disabled, Instant createdAt) {

    ApiKey toApiKey() {
        return new ApiKey(id, settings.name(), settings.allowedModels(), settings.rpm(), settings.tpm(),
                settings.modelLimits(), settings.budgetUsd(), settings.expiresAt(), settings.maxConcurrent(), disabled, false);
    }

    BigDecimal budgetUsd() {
        return settings.budgetUsd();
    }
}
