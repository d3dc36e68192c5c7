package dev.modelgateway.services;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import java.time.Duration;

/**
 * The conversations behind responses the gateway itself produced (translated models), so that
 * {@code previous_response_id} works although those vendors are stateless. Bounded in memory and local to
 * this process (docs/endpoints.md): entries are weighed by their JSON size and expire when unused.
 */
public final class ResponseStore {
    static final long MAX_BYTES = 256L * 1024 * 1024;
    public static final Duration IDLE_EXPIRY = Duration.ofHours(6);

    /** @param keyId the API key that created the response; other keys cannot chain onto it */
    public record Stored(String keyId, ArrayNode items) { }

    private final Cache<String, Stored> cache = Caffeine.newBuilder()
            .maximumWeight(MAX_BYTES)
            .weigher((String id, Stored s) -> (int) Math.min(Integer.MAX_VALUE, s.items().toString().length()))
            .expireAfterAccess(IDLE_EXPIRY)
            .build();

    /** @param items the whole conversation: the request's (expanded) input items followed by the output items */
    public void put(String responseId, String keyId, ArrayNode items) {
        cache.put(responseId, new Stored(keyId, items));
    }

    /** The stored conversation, or null when unknown, expired or created by another key. */
    public Stored find(String responseId, String keyId) {
        Stored s = cache.getIfPresent(responseId);
        return s != null && s.keyId().equals(keyId) ? s : null;
    }
}
