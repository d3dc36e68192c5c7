package dev.modelgateway.identity;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import io.vertx.core.Future;

import java.net.URI;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The identity providers' signing keys (JWKS, RFC 7517), per key-set URL: fetched once and kept for {@link #KEEP};
 * a token signed with a key id the set lacks fetches the set again, at most once per {@link #MIN_REFETCH} by the
 * injected clock, so that a provider's key rotation is picked up without a restart while random key ids cannot make
 * the gateway hammer the provider. Keyed by configured URLs only.
 */
public final class JwksCache {
    static final Duration KEEP = Duration.ofHours(1);
    public static final Duration MIN_REFETCH = Duration.ofSeconds(10);

    private record Held(Future<JWKSet> keys, Instant fetched) {
    }

    private final IdentityHttp http;
    private final InstantSource clock;
    private final Map<URI, Held> sets = new ConcurrentHashMap<>();

    public JwksCache(IdentityHttp http, InstantSource clock) {
        this.http = http;
        this.clock = clock;
    }

    /** The key {@code kid} of the set at {@code uri} (the only key when {@code kid} is null and the set has one). */
    public Future<Optional<JWK>> key(URI uri, String kid) {
        Instant now = clock.instant();
        Held held = sets.get(uri);
        // a failed fetch stands for MIN_REFETCH too: an unreachable provider gets one request per interval, not one per call
        if (held != null && held.keys().failed() && now.isBefore(held.fetched().plus(MIN_REFETCH))) {
            return held.keys().map(set -> find(set, kid));
        }
        if (held == null || held.keys().failed() || held.keys().succeeded() && !now.isBefore(held.fetched().plus(KEEP))) {
            return fetch(uri, now).map(set -> find(set, kid));
        }
        return held.keys().compose(set -> {
            Optional<JWK> found = find(set, kid);
            if (found.isPresent() || now.isBefore(held.fetched().plus(MIN_REFETCH))) return Future.succeededFuture(found);
            Held current = sets.get(uri);
            // another call may have refetched meanwhile: join it rather than fetch again
            Future<JWKSet> again = current != held ? current.keys() : fetch(uri, now);
            return again.map(s -> find(s, kid));
        });
    }

    private synchronized Future<JWKSet> fetch(URI uri, Instant now) {
        Held current = sets.get(uri);
        if (current != null && !current.keys().isComplete()) return current.keys();
        Future<JWKSet> keys = http.getJson(uri).map(json -> {
            try {
                return JWKSet.parse(json.toString());
            } catch (ParseException e) {
                throw new IdentityHttp.Failed("the key set at " + uri + " is not a JWK set: " + e.getMessage(), 200, null);
            }
        });
        sets.put(uri, new Held(keys, now));
        return keys;
    }

    private static Optional<JWK> find(JWKSet set, String kid) {
        if (kid == null) return set.getKeys().size() == 1 ? Optional.of(set.getKeys().get(0)) : Optional.empty();
        return Optional.ofNullable(set.getKeyByKeyId(kid));
    }
}
