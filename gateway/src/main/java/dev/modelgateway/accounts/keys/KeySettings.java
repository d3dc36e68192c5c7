package dev.modelgateway.accounts.keys;

import dev.modelgateway.accounts.AccountsConfig;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * What an administrator chooses for a key; null limits mean none, except {@code maxConcurrent}: null there means
 * the gateway's default ({@link AccountsConfig#defaultMaxConcurrent()}).
 *
 * @param teamId       the team the key belongs to, whose allow-list, limits and budget it shares; null: none
 * @param budgetPeriod the span {@code budgetUsd} counts over; null: the key's lifetime
 */
public record KeySettings(String name, List<String> allowedModels, Long rpm, Long tpm, BigDecimal budgetUsd, Instant expiresAt,
                   List<ModelLimit> modelLimits, Long maxConcurrent, String teamId, BudgetPeriod budgetPeriod) {

    public KeySettings {
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
        modelLimits = modelLimits == null ? List.of() : List.copyOf(modelLimits);
        budgetPeriod = BudgetPeriod.orLifetime(budgetPeriod);
    }

    /** Settings of a key outside any team, with a lifetime budget. */
    public KeySettings(String name, List<String> allowedModels, Long rpm, Long tpm, BigDecimal budgetUsd, Instant expiresAt,
                List<ModelLimit> modelLimits, Long maxConcurrent) {
        this(name, allowedModels, rpm, tpm, budgetUsd, expiresAt, modelLimits, maxConcurrent, null, null);
    }

    /** Settings without per-model limits, with the default concurrency limit. */
    public KeySettings(String name, List<String> allowedModels, Long rpm, Long tpm, BigDecimal budgetUsd, Instant expiresAt) {
        this(name, allowedModels, rpm, tpm, budgetUsd, expiresAt, List.of(), null);
    }

    /** The same settings in team {@code teamId}. */
    public KeySettings inTeam(String teamId) {
        return new KeySettings(name, allowedModels, rpm, tpm, budgetUsd, expiresAt, modelLimits, maxConcurrent, teamId, budgetPeriod);
    }
}
