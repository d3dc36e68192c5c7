package dev.modelgateway.accounts;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * What an administrator chooses for a key; null limits mean none, except {@code maxConcurrent}: null there means
 * the gateway's default ({@link AccountsConfig#defaultMaxConcurrent()}).
 */
record KeySettings(String name, List<String> allowedModels, Long rpm, Long tpm, BigDecimal budgetUsd, Instant expiresAt,
                   List<ModelLimit> modelLimits, Long maxConcurrent) {

    KeySettings {
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
        modelLimits = modelLimits == null ? List.of() : List.copyOf(modelLimits);
    }

    /** Settings without per-model limits, with the default concurrency limit. */
    KeySettings(String name, List<String> allowedModels, Long rpm, Long tpm, BigDecimal budgetUsd, Instant expiresAt) {
        this(name, allowedModels, rpm, tpm, budgetUsd, expiresAt, List.of(), null);
    }
}
