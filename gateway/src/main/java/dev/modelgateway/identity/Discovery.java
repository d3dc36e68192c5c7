package dev.modelgateway.identity;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Future;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Issuers' OpenID Connect discovery documents ({@code {issuer}/.well-known/openid-configuration}, OpenID Connect
 * Discovery 1.0 §4), each kept for {@link #KEEP}; a document whose {@code issuer} is not the configured one is refused
 * (§4.3). Keyed by the configured issuers only, so the map stays as small as the configuration.
 */
public final class Discovery {
    static final Duration KEEP = Duration.ofHours(1);

    private record Held(Future<JsonNode> document, Instant fetched) {
    }

    private final IdentityHttp http;
    private final InstantSource clock;
    private final Map<URI, Held> documents = new ConcurrentHashMap<>();

    public Discovery(IdentityHttp http, InstantSource clock) {
        this.http = http;
        this.clock = clock;
    }

    public Future<JsonNode> of(URI issuer) {
        Instant now = clock.instant();
        Held held = documents.get(issuer);
        if (held != null && (!held.document().isComplete() || held.document().succeeded() && now.isBefore(held.fetched().plus(KEEP))
                || held.document().failed() && now.isBefore(held.fetched().plus(JwksCache.MIN_REFETCH)))) {
            // a failure stands for MIN_REFETCH: an unreachable provider is asked once per interval, not once per call
            return held.document();
        }
        String base = issuer.toString().endsWith("/") ? issuer.toString() : issuer + "/";
        Future<JsonNode> doc = http.getJson(URI.create(base + ".well-known/openid-configuration")).map(json -> {
            String stated = json.path("issuer").asText(null);
            if (!issuer.toString().equals(stated)) {
                throw new IdentityHttp.Failed("the discovery document of " + issuer + " names another issuer: " + stated, 200, null);
            }
            return json;
        });
        documents.put(issuer, new Held(doc, now));
        return doc;
    }

    /** A URL field of the issuer's document ({@code jwks_uri}, {@code token_endpoint}…); fails when absent. */
    public Future<URI> endpoint(URI issuer, String field) {
        return of(issuer).map(doc -> {
            String v = doc.path(field).asText(null);
            if (v == null) throw new IdentityHttp.Failed("the discovery document of " + issuer + " has no " + field, 200, null);
            return URI.create(v);
        });
    }
}
