package dev.modelgateway.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.modelgateway.json.Json;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The responses the gateway itself produced (translated models) with the input they answered, so that
 * {@code previous_response_id}, {@code item_reference} and {@code GET /responses/{id}} work although those
 * vendors are stateless. Bounded in memory and local to
 * this process (docs/endpoints.md): entries are kept as their serialized JSON, so the bound counts the bytes
 * really held (a Jackson tree takes about 20 times its JSON size), and expire when unused.
 */
public final class ResponseStore {
    static final long MAX_BYTES = 256L * 1024 * 1024;
    /** What an entry costs beyond its JSON: the key, the record, the cache node. */
    private static final int ENTRY_OVERHEAD = 128;
    public static final Duration IDLE_EXPIRY = Duration.ofHours(6);

    /**
     * @param keyId        the API key that created the response; other keys can neither see it nor chain onto it
     * @param inputJson    the input items ({@link Input})
     * @param responseJson the response object
     */
    public record Stored(String keyId, byte[] inputJson, byte[] responseJson) {
        /** The items the response was generated from (the expanded input), parsed anew for each use. */
        public ArrayNode input() {
            return (ArrayNode) parse(inputJson);
        }

        /** The response object as the caller received it. */
        public ObjectNode response() {
            return (ObjectNode) parse(responseJson);
        }

        /** The whole conversation: the input items followed by the output items. */
        public ArrayNode items() {
            ArrayNode items = input();
            if (response().path("output") instanceof ArrayNode output) items.addAll(output);
            return items;
        }

        private static JsonNode parse(byte[] json) {
            return Json.parseOrNull(new String(json, StandardCharsets.UTF_8));
        }
    }

    /**
     * A request's (expanded) input items, serialized before the call so that storing its response neither walks
     * nor copies them when it completes: the input may be megabytes, serialized beside the event loop then
     * (docs/security.md), while the response is stored before the caller sees it.
     */
    public record Input(byte[] json) {
        public static Input of(ArrayNode items) {
            return new Input(Json.toBuffer(items).getBytes());
        }
    }

    private final Cache<String, Stored> cache;

    public ResponseStore() {
        this(MAX_BYTES);
    }

    ResponseStore(long maxBytes) {
        this.cache = Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((String id, Stored s) -> s.inputJson().length + s.responseJson().length + id.length() + ENTRY_OVERHEAD)
                .expireAfterAccess(IDLE_EXPIRY)
                .build();
    }

    /** @param response the response object with its output, as the caller receives it */
    public void put(String responseId, String keyId, Input input, ObjectNode response) {
        cache.put(responseId, new Stored(keyId, input.json(), Json.toBuffer(response).getBytes()));
    }

    /** The stored conversation, or null when unknown, expired or created by another key. */
    public Stored find(String responseId, String keyId) {
        Stored s = cache.getIfPresent(responseId);
        return s != null && s.keyId().equals(keyId) ? s : null;
    }

    /** Forgets a stored response; false when unknown, expired or created by another key (then nothing changes). */
    public boolean remove(String responseId, String keyId) {
        boolean[] removed = {false};
        cache.asMap().computeIfPresent(responseId, (id, s) -> {
            if (!s.keyId().equals(keyId)) return s;
            removed[0] = true;
            return null;
        });
        return removed[0];
    }

    void cleanUp() {
        cache.cleanUp();
    }
}
