package dev.modelgateway.accounts.limits;

import dev.modelgateway.accounts.ApiKey;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.accounts.keys.Team;

import java.util.ArrayList;
import java.util.List;

/**
 * One pair of buckets a request draws from: the key's own ({@code models} null), the key's buckets for the models
 * matching one of its {@link ModelLimit}s, or its team's (then {@code keyId} is the team's holder id
 * {@code team:<id>} and {@code teamName} names it), which every key of the team draws from.
 */
public record RateScope(String keyId, String models, RateLimits limits, String teamName) {

    public RateScope(String keyId, String models, RateLimits limits) {
        this(keyId, models, limits, null);
    }

    /**
     * The scopes a request for {@code publicModel} must fit in: the key's, then the first matching model limit's,
     * then the team's.
     */
    public static List<RateScope> of(ApiKey key, String publicModel) {
        List<RateScope> scopes = new ArrayList<>(3);
        RateLimits own = RateLimits.of(key);
        if (!own.none()) scopes.add(new RateScope(key.id(), null, own));
        ModelLimit modelLimit = key.modelLimit(publicModel);
        if (modelLimit != null && !RateLimits.of(modelLimit).none()) {
            scopes.add(new RateScope(key.id(), modelLimit.models(), RateLimits.of(modelLimit)));
        }
        RateScope team = team(key.team());
        if (team != null) scopes.add(team);
        return scopes;
    }

    /** The team's shared buckets, or null when it has no per-minute limits (or there is no team). */
    public static RateScope team(Team team) {
        if (team == null || RateLimits.of(team).none()) return null;
        return new RateScope(team.holder(), null, RateLimits.of(team), team.name());
    }

    /** Names the bucket pair within the key: empty for the key's own, else the model glob. */
    String bucket() {
        return models == null ? "" : models;
    }

    public String describe(String keyName) {
        if (teamName != null) return "team '" + teamName + "'";
        return "API key '" + keyName + "'" + (models == null ? "" : " on models '" + models + "'");
    }
}
