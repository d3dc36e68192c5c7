package dev.modelgateway.accounts;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A team: the keys that belong to it share its allow-list, its per-minute limits and its budget, each checked on
 * top of the key's own (docs/accounts.md, "Teams"). Null limits mean none; an empty allow-list allows every model.
 */
record Team(String id, String name, List<String> allowedModels, Long rpm, Long tpm, BigDecimal budgetUsd,
            BudgetPeriod budgetPeriod, Instant createdAt) {

    /** Spend, holds and rate buckets of a team are kept under this id, apart from any key's. */
    static final String HOLDER_PREFIX = "team:";

    Team {
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
        budgetPeriod = BudgetPeriod.orLifetime(budgetPeriod);
    }

    String holder() {
        return HOLDER_PREFIX + id;
    }

    boolean allows(List<String> modelNames) {
        return allowedModels.isEmpty() || allowedModels.stream().anyMatch(glob -> modelNames.stream().anyMatch(n -> ModelGlob.matches(glob, n)));
    }

    RateLimits limits() {
        return new RateLimits(rpm == null ? 0 : rpm, tpm == null ? 0 : tpm);
    }
}
