package dev.modelgateway.accounts;

import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.ModelGlob;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.accounts.keys.Team;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A caller's key as the request path sees it. Null limits mean "no limit"; an empty
 * {@code allowedModels} allows every model.
 *
 * @param allowedModels glob patterns such as {@code platform/vendorA-*}
 * @param modelLimits   per-model limits on top of {@code rpm}/{@code tpm}; the first matching glob applies
 * @param maxConcurrent calls the key may have in flight at once; null = the gateway's default
 * @param master        the synthetic key behind the configured master key: unlimited, admin rights
 * @param team          the key's team (its allow-list, limits and budget apply too); null: none
 * @param budgetPeriod  the span {@code budgetUsd} counts over
 * @param secretAcceptedUntil when the caller authenticated with the secret a rotation replaced: the end of its grace,
 *                      after which a long-lived call (a realtime session) is refused; null for the current secret
 * @param userId        the user the key's calls are billed to (the ledger's {@code user_id}): its owner, or the user an
 *                      identity provider's token was mapped to; null for a key that belongs to nobody
 */
public record ApiKey(String id, String name, List<String> allowedModels, Long rpm, Long tpm, List<ModelLimit> modelLimits,
                     BigDecimal budgetUsd, Instant expiresAt, Long maxConcurrent, boolean disabled, boolean master,
                     Team team, BudgetPeriod budgetPeriod, Instant secretAcceptedUntil, String userId) {

    /** The longest key id the tables hold. */
    private static final int MAX_ID = 32;

    static final ApiKey MASTER = new ApiKey("master", "master", List.of(), null, null, List.of(), null, null, null, false, true);

    public ApiKey {
        allowedModels = allowedModels == null ? List.of() : List.copyOf(allowedModels);
        modelLimits = modelLimits == null ? List.of() : List.copyOf(modelLimits);
        budgetPeriod = BudgetPeriod.orLifetime(budgetPeriod);
    }

    /** A key that belongs to no user. */
    public ApiKey(String id, String name, List<String> allowedModels, Long rpm, Long tpm, List<ModelLimit> modelLimits,
                  BigDecimal budgetUsd, Instant expiresAt, Long maxConcurrent, boolean disabled, boolean master,
                  Team team, BudgetPeriod budgetPeriod, Instant secretAcceptedUntil) {
        this(id, name, allowedModels, rpm, tpm, modelLimits, budgetUsd, expiresAt, maxConcurrent, disabled, master, team,
                budgetPeriod, secretAcceptedUntil, null);
    }

    /** A key outside any team, with a lifetime budget. */
    public ApiKey(String id, String name, List<String> allowedModels, Long rpm, Long tpm, List<ModelLimit> modelLimits,
                  BigDecimal budgetUsd, Instant expiresAt, Long maxConcurrent, boolean disabled, boolean master) {
        this(id, name, allowedModels, rpm, tpm, modelLimits, budgetUsd, expiresAt, maxConcurrent, disabled, master, null, null, null);
    }

    /** The same key, authenticated with a rotation's previous secret, accepted until {@code until}. */
    ApiKey withSecretAcceptedUntil(Instant until) {
        return new ApiKey(id, name, allowedModels, rpm, tpm, modelLimits, budgetUsd, expiresAt, maxConcurrent, disabled, master,
                team, budgetPeriod, until, userId);
    }

    /**
     * Whether this key stands for a user who called with an identity provider's token (docs/identity/caller-tokens.md):
     * no stored key, its id {@link #userKeyId the user's}, so that limits, budgets and spend are the user's.
     */
    public boolean forUser() {
        return userId != null && id.equals(userKeyId(userId));
    }

    /**
     * The key id a user calling with an identity provider's token is admitted and billed under: its user id without
     * the {@code usr_} prefix, one to one with it (32 hex digits), as every key id column holds 32 characters
     * ({@code usage_ledger.key_id}, the stored responses' owner) and a user id 36.
     */
    public static String userKeyId(String userId) {
        String id = userId.startsWith("usr_") ? userId.substring(4) : userId;
        if (id.length() > MAX_ID) throw new IllegalArgumentException("a user id longer than " + (MAX_ID + 4) + " characters");
        return id;
    }

    /** The first model limit whose glob matches, or null. */
    public ModelLimit modelLimit(String publicModel) {
        for (ModelLimit l : modelLimits) if (l.matches(publicModel)) return l;
        return null;
    }

    /**
     * The key's own allow-list, for a model going by {@code modelNames} (its public id and its aliases: an entry may
     * name either); its team's is {@link Team#allows}.
     */
    public boolean allows(List<String> modelNames) {
        return allowedModels.isEmpty() || allowedModels.stream().anyMatch(glob -> modelNames.stream().anyMatch(n -> ModelGlob.matches(glob, n)));
    }

    public boolean expiredAt(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** The team's id, for the ledger; null outside a team. */
    public String teamId() {
        return team == null ? null : team.id();
    }
}
