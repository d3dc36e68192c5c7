package dev.modelgateway.accounts.keys;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A team: the keys that belong to it share its allow-list, its per-minute limits and its budget, each checked on
 * top of the key's own (docs/accounts.md, "Teams"). Null limits mean none; an empty allow-list allows every model.
 */
public record Team(String id, String name, List<String> allowedModels, Long rpm, Long tpm, BigDecimal budgetUsd,
            BudgetPeriod budgetPeriod, Instant createdAt) {

    /** Spend, holds and rate buckets of a team are kept under this id, apart from any key's. */
    public static final String HOLDER_PREFIX = "team:";

    public Team {
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
        budgetPeriod = BudgetPeriod.orLifetime(budgetPeriod);
    }

    public String holder() {
        return HOLDER_PREFIX + id;
    }

    public boolean allows(List<String> modelNames) {
        return allowedModels.isEmpty() || allowedModels.stream().anyMatch(glob -> modelNames.stream().anyMatch(n -> ModelGlob.matches(glob, n)));
    }
}
