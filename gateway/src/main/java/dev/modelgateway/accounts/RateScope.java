package dev.modelgateway.accounts;

import java.util.ArrayList;
import java.util.List;

/**
 * One pair of buckets a request draws from: the key's own ({@code models} null) or the key's buckets
 * for the models matching one of its {@link ModelLimit}s.
 */
record RateScope(String keyId, String models, RateLimits limits) {

    /** The scopes a request for {@code publicModel} must fit in: the key's, then the first matching model limit's. */
    static List<RateScope> of(ApiKey key, String publicModel) {
        List<RateScope> scopes = new ArrayList<>(2);
        RateLimits own = RateLimits.of(key);
        if (!own.none()) scopes.add(new RateScope(key.id(), null, own));
        ModelLimit modelLimit = key.modelLimit(publicModel);
        if (modelLimit != null && !modelLimit.limits().none()) {
            scopes.add(new RateScope(key.id(), modelLimit.models(), modelLimit.limits()));
        }
        return scopes;
    }

    /** Names the bucket pair within the key: empty for the key's own, else the model glob. */
    String bucket() {
        return models == null ? "" : models;
    }

    String describe(String keyName) {
        return "API key '" + keyName + "'" + (models == null ? "" : " on models '" + models + "'");
    }
}
