package dev.modelgateway.services;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The stored responses of a gateway on the embedded database: in this process's memory. Entries are kept as their
 * serialized JSON, so the total bound counts the bytes really held (a Jackson tree takes about 20 times its JSON
 * size), and expire when unused.
 */
final class LocalResponses implements ResponseStore {
    /** What an entry costs beyond its JSON: the key, the record, the cache node. */
    private static final int ENTRY_OVERHEAD = 128;

    private final ResponseBounds bounds;
    private final Cache<String, Stored> cache;

    LocalResponses(ResponseBounds bounds) {
        this(bounds, Ticker.systemTicker());
    }

    /** @param ticker the clock of the idle expiry (tests move it) */
    LocalResponses(ResponseBounds bounds, Ticker ticker) {
        this.bounds = bounds;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(bounds.maxTotalBytes())
                .weigher((String id, Stored s) -> (int) Math.min(Integer.MAX_VALUE, s.bytes() + id.length() + ENTRY_OVERHEAD))
                .expireAfterAccess(bounds.idleExpiry())
                .ticker(ticker)
                .build();
    }

    @Override
    public ResponseBounds bounds() {
        return bounds;
    }

    @Override
    public Future<Void> put(String responseId, String keyId, Input input, ObjectNode response) {
        Stored stored = new Stored(keyId, input.json(), Json.toBuffer(response).getBytes());
        if (stored.bytes() > bounds.maxResponseBytes()) return Future.failedFuture(bounds.tooLarge(stored.bytes()));
        cache.put(responseId, stored);
        return Future.succeededFuture();
    }

    @Override
    public Future<Map<String, Stored>> find(Collection<String> responseIds, String keyId) {
        Map<String, Stored> found = new HashMap<>();
        for (String id : responseIds) {
            Stored s = cache.getIfPresent(id);
            if (s != null && s.keyId().equals(keyId)) found.put(id, s);
        }
        return Future.succeededFuture(found);
    }

    @Override
    public Future<Boolean> remove(String responseId, String keyId) {
        boolean[] removed = {false};
        cache.asMap().computeIfPresent(responseId, (id, s) -> {
            if (!s.keyId().equals(keyId)) return s;
            removed[0] = true;
            return null;
        });
        return Future.succeededFuture(removed[0]);
    }

    @Override
    public Future<Void> close() {
        return Future.succeededFuture();
    }

    void cleanUp() {
        cache.cleanUp();
    }
}
