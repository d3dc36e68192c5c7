package dev.modelgateway.accounts;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A caller's key as the request path sees it. Null limits mean "no limit"; an empty
 * {@code allowedModels} allows every model.
 *
 * @param allowedModels glob patterns such as {@code platform/vendorA-*}
 * @param master        the synthetic key behind the configured master key: unlimited, admin rights
 */
public record ApiKey(String id, String name, List<String> allowedModels, Long rpm, Long tpm, BigDecimal budgetUsd,
                     Instant expiresAt, boolean disabled, boolean master) {

    static final ApiKey MASTER = new ApiKey("master", "master", List.of(), null, null, null, null, false, true);

    public ApiKey {
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
    }

    public boolean allows(String publicModel) {
        return allowedModels.isEmpty() || allowedModels.stream().anyMatch(glob -> ModelGlob.matches(glob, publicModel));
    }

    public boolean expiredAt(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }
}
