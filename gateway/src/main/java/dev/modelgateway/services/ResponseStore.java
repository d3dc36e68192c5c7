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
     * @param keyId the API key that created the response; other keys can neither see it nor chain onto it
     * @param json  {@code {"input":[the input items], "response":{the response object}}}
     */
    public record Stored(String keyId, byte[] json) {
        private ObjectNode parsed() {
            return (ObjectNode) Json.parseOrNull(new String(json, StandardCharsets.UTF_8));
        }

        /** The items the response was generated from (the expanded input), parsed anew for each use. */
        public ArrayNode input() {
            return (ArrayNode) parsed().get("input");
        }

        /** The response object as the caller received it. */
        public ObjectNode response() {
            return (ObjectNode) parsed().get("response");
        }

        /** The whole conversation: the input items followed by the output items. */
        public ArrayNode items() {
            ObjectNode p = parsed();
            ArrayNode items = (ArrayNode) p.get("input");
            if (p.path("response").path("output") instanceof ArrayNode output) items.addAll(output);
            return items;
        }

        /** The input or output item of this response with that id, or null. */
        public JsonNode item(String itemId) {
            for (JsonNode item : items()) {
                if (itemId.equals(item.path("id").asText(null))) return item;
            }
            return null;
        }
    }

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

    /** @param input the request's (expanded) input items; {@code response} the response object with its output */
    public void put(String responseId, String keyId, ArrayNode input, ObjectNode response) {
        ObjectNode entry = Json.MAPPER.createObjectNode();
        entry.set("input", input);
        entry.set("response", response);
        cache.put(responseId, new Stored(keyId, Json.toBuffer(entry).getBytes()));
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
