package dev.modelgateway.services;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The store's memory bound holds for the heap it really takes, not only for the JSON size of what it keeps. */
class ResponseStoreTest {
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

    private static long usedHeapAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    @Test
    void heapHeldByTheStoreStaysNearItsBound() throws InterruptedException {
        ResponseStore store = new ResponseStore(BOUND);
        long before = usedHeapAfterGc();
        // about 120 KB of JSON each: 3x the bound in JSON, so the cache must evict
        for (int n = 0; n < 400; n++) store.put("resp_" + n, "key", ResponseStore.Input.of(conversation(n)), Json.MAPPER.createObjectNode());
        store.cleanUp();
        long held = usedHeapAfterGc() - before;

        assertThat(held).as("heap held by a store bounded at %d bytes", BOUND).isLessThan(3 * BOUND);
        int kept = 0;
        for (int n = 0; n < 400; n++) {
            ResponseStore.Stored stored = store.find("resp_" + n, "key");
            if (stored == null) continue;
            kept++;
            assertThat(stored.items().get(1999).at("/content/0/text").asText()).isEqualTo("turn " + n + "/1999");
            assertThat(store.find("resp_" + n, "other-key")).as("another key cannot chain onto it").isNull();
        }
        // the bound holds about 130 of these conversations; the cache chooses which (W-TinyLFU)
        assertThat(kept).isBetween(50, 200);
    }
}
