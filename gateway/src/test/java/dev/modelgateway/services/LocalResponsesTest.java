package dev.modelgateway.services;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The in-process store: its memory bound holds for the heap it really takes, not only for the JSON size of what it
 * keeps; a response larger than the per-response bound is not kept; an unused one expires; another key's id is
 * answered as an unknown one. Alone in the JVM: the heap it measures is every running test's.
 */
@Isolated
class LocalResponsesTest {
    private static final long BOUND = 16L * 1024 * 1024;

    /** A conversation of many small items, the shape that costs a Jackson tree many times its JSON size. */
    private static ArrayNode conversation(int n) {
        ArrayNode items = Json.MAPPER.createArrayNode();
        for (int i = 0; i < 2_000; i++) {
            ObjectNode item = items.addObject().put("type", "message").put("role", i % 2 == 0 ? "user" : "assistant");
            item.putArray("content").addObject().put("type", "output_text").put("text", "turn " + n + "/" + i);
        }
        return items;
    }

    /** Full collections are synchronous; a few in a row let what the first one found unreachable go too. */
    private static long usedHeapAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    @Test
    void heapHeldByTheStoreStaysNearItsBound() {
        LocalResponses store = new LocalResponses(new ResponseBounds(BOUND, BOUND, Duration.ofHours(6)));
        long before = usedHeapAfterGc();
        // about 120 KB of JSON each: 3x the bound in JSON, so the cache must evict
        for (int n = 0; n < 400; n++) store.put("resp_" + n, "key", ResponseStore.Input.of(conversation(n)), Json.MAPPER.createObjectNode());
        store.cleanUp();
        long held = usedHeapAfterGc() - before;

        assertThat(held).as("heap held by a store bounded at %d bytes", BOUND).isLessThan(3 * BOUND);
        int kept = 0;
        for (int n = 0; n < 400; n++) {
            ResponseStore.Stored stored = store.find("resp_" + n, "key").result();
            if (stored == null) continue;
            kept++;
            assertThat(stored.items().get(1999).at("/content/0/text").asText()).isEqualTo("turn " + n + "/1999");
            assertThat(store.find("resp_" + n, "other-key").result()).as("another key cannot chain onto it").isNull();
        }
        // the bound holds about 130 of these conversations; the cache chooses which (W-TinyLFU)
        assertThat(kept).isBetween(50, 200);
    }

    @Test
    void aResponseOverThePerResponseBoundIsNotKept() {
        LocalResponses store = new LocalResponses(new ResponseBounds(100_000, BOUND, Duration.ofHours(6)));
        var refused = store.put("resp_big", "key", ResponseStore.Input.of(conversation(1)), Json.MAPPER.createObjectNode());
        assertThat(refused.failed()).isTrue();
        assertThat(refused.cause().getMessage()).contains("not stored");
        assertThat(store.find("resp_big", "key").result()).isNull();

        assertThat(store.put("resp_small", "key", ResponseStore.Input.of(Json.MAPPER.createArrayNode()), Json.MAPPER.createObjectNode())
                .succeeded()).isTrue();
        assertThat(store.find("resp_small", "key").result()).isNotNull();
    }

    @Test
    void anUnusedResponseExpiresAndEachUseStartsItsExpiryAgain() {
        AtomicLong nanos = new AtomicLong();
        LocalResponses store = new LocalResponses(new ResponseBounds(BOUND, BOUND, Duration.ofHours(6)), nanos::get);
        ResponseStore.Input input = ResponseStore.Input.of(Json.MAPPER.createArrayNode());
        store.put("resp_used", "key", input, Json.MAPPER.createObjectNode());
        store.put("resp_unused", "key", input, Json.MAPPER.createObjectNode());

        nanos.addAndGet(Duration.ofHours(5).toNanos());
        assertThat(store.find("resp_used", "key").result()).isNotNull();
        nanos.addAndGet(Duration.ofHours(2).toNanos());

        assertThat(store.find(List.of("resp_used", "resp_unused"), "key").result()).containsOnlyKeys("resp_used");
    }

    @Test
    void anotherKeyNeitherFindsNorRemovesAResponse() {
        LocalResponses store = new LocalResponses(ResponseBounds.LOCAL);
        store.put("resp_mine", "key", ResponseStore.Input.of(Json.MAPPER.createArrayNode()), Json.MAPPER.createObjectNode());

        assertThat(store.find("resp_mine", "other-key").result()).isNull();
        assertThat(store.remove("resp_mine", "other-key").result()).isFalse();
        assertThat(store.find("resp_mine", "key").result()).as("still there for its key").isNotNull();
        assertThat(store.remove("resp_mine", "key").result()).isTrue();
        assertThat(store.find("resp_mine", "key").result()).isNull();
    }
}
