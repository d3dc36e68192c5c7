package dev.modelgateway.accounts;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/** What an administrator chooses for a key; null limits mean none. */
record KeySettings(String name, List<String> allowedModels, Long rpm, Long tpm, BigDecimal budgetUsd, Instant expiresAt) {

    KeySettings {
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
    }
}
