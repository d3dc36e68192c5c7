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
 *
 * @param hashTag the holder whose Redis hash slot keeps the bucket: a key's buckets sit in its team's slot (when it has
 *                a team), so that one script takes from the key's and the team's at once on a Redis Cluster
 *                (docs/operations/scale-out.md, "Keys and hash slots")
 */
public record RateScope(String keyId, String models, RateLimits limits, String teamName, String hashTag) {

    /** A team's scope ({@code teamName} set) or a key's without a team. */
    public RateScope(String keyId, String models, RateLimits limits, String teamName) {
        this(keyId, models, limits, teamName, keyId);
    }

    public RateScope(String keyId, String models, RateLimits limits) {
        this(keyId, models, limits, null);
    }

    /** A key's scope; {@code teamHolder}: its team's holder id ({@link Team#holder()}), null without a team. */
    public static RateScope ofKey(String keyId, String teamHolder, String models, RateLimits limits) {
        return new RateScope(keyId, models, limits, null, teamHolder == null ? keyId : teamHolder);
    }

    /**
     * The scopes a request for {@code publicModel} must fit in: the key's, then the first matching model limit's,
     * then the team's.
     */
    public static List<RateScope> of(ApiKey key, String publicModel) {
        List<RateScope> scopes = new ArrayList<>(3);
        String team = key.team() == null ? null : key.team().holder();
        RateLimits own = RateLimits.of(key);
        if (!own.none()) scopes.add(ofKey(key.id(), team, null, own));
        ModelLimit modelLimit = key.modelLimit(publicModel);
        if (modelLimit != null && !RateLimits.of(modelLimit).none()) {
            scopes.add(ofKey(key.id(), team, modelLimit.models(), RateLimits.of(modelLimit)));
        }
        RateScope teamScope = team(key.team());
        if (teamScope != null) scopes.add(teamScope);
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
