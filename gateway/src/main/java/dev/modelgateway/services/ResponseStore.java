package dev.modelgateway.services;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.modelgateway.json.Json;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The conversations behind responses the gateway itself produced (translated models), so that
 * {@code previous_response_id} works although those vendors are stateless. Bounded in memory and local to
 * this process (docs/endpoints.md): entries are kept as their serialized JSON, so the bound counts the bytes
 * really held (a Jackson tree takes about 20 times its JSON size), and expire when unused.
 */
public final class ResponseStore {
    static final long MAX_BYTES = 256L * 1024 * 1024;
    /** What an entry costs beyond its JSON: the key, the record, the cache node. */
    private static final int ENTRY_OVERHEAD = 128;
    public static final Duration IDLE_EXPIRY = Duration.ofHours(6);
    /** Vendor B keeps a stored response for 30 days. */
    public static final Duration OWNED_EXPIRY = Duration.ofDays(30);

    /** @param keyId the API key that created the response; other keys cannot chain onto it */
    public record Stored(String keyId, byte[] json) {
        /** The conversation's items, parsed anew for each use. */
        public ArrayNode items() {
            return (ArrayNode) Json.parseOrNull(new String(json, StandardCharsets.UTF_8));
        }
    }

    /**
     * Which key created each vendor B response relayed natively: the vendor keeps them for the gateway's own
     * account, so without this any key could continue another key's response whose id it learned.
     */
    private static final int MAX_OWNED = 500_000;
    private final Cache<String, String> owners = Caffeine.newBuilder()
            .maximumSize(MAX_OWNED)
            .expireAfterAccess(OWNED_EXPIRY)
            .build();
    private final Cache<String, Stored> cache;

    public ResponseStore() {
        this(MAX_BYTES);
    }

    ResponseStore(long maxBytes) {
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String id, Stored s) -> s.json().length + id.length() + ENTRY_OVERHEAD)
                .expireAfterAccess(IDLE_EXPIRY)
                .build();
    }

    /** @param items the whole conversation: the request's (expanded) input items followed by the output items */
    public void put(String responseId, String keyId, ArrayNode items) {
        cache.put(responseId, new Stored(keyId, Json.toBuffer(items).getBytes()));
    }

    /** The stored conversation, or null when unknown, expired or created by another key. */
    public Stored find(String responseId, String keyId) {
        Stored s = cache.getIfPresent(responseId);
        return s != null && s.keyId().equals(keyId) ? s : null;
    }

    /** Notes that {@code keyId} created the vendor's response {@code vendorResponseId}. */
    public void own(String vendorResponseId, String keyId) {
        owners.put(vendorResponseId, keyId);
    }

    /** Whether {@code keyId} created the vendor's response {@code vendorResponseId} through this gateway process. */
    public boolean owns(String vendorResponseId, String keyId) {
        return keyId.equals(owners.getIfPresent(vendorResponseId));
    }

    void cleanUp() {
        cache.cleanUp();
    }
}
