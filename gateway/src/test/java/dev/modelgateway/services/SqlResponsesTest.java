package dev.modelgateway.services;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stored responses in PostgreSQL (a schema of their own for each test): scoped to the key that made them,
 * bounded per response and in total, expiring when unused, and swept.
 */
@ExternalStores
class SqlResponsesTest {
    private static final Duration EXPIRY = Duration.ofHours(6);

    private SharedStores stores;
    private Database db;
    private Vertx vertx;
    private final AtomicLong now = new AtomicLong(1_000_000);

    @BeforeEach
    void open() throws SQLException {
        stores = new SharedStores();
        db = Database.open(stores.databaseUrl(), SharedServices.SCHEMA);
        vertx = Vertx.vertx();
    }

    @AfterEach
    void close() throws SQLException {
        vertx.close().await();
        db.close();
        stores.close();
    }

    private SqlResponses store(long maxResponseBytes, long maxTotalBytes) {
        return new SqlResponses(vertx, db, new ResponseBounds(maxResponseBytes, maxTotalBytes, EXPIRY), now::get, 0);
    }

    /** An input of about {@code bytes} bytes of JSON. */
    private static ResponseStore.Input input(int bytes) {
        ArrayNode items = Json.MAPPER.createArrayNode();
        items.addObject().put("role", "user").put("content", "x".repeat(bytes));
        return ResponseStore.Input.of(items);
    }

    private static ObjectNode response(String id) {
        ObjectNode r = Json.MAPPER.createObjectNode().put("id", id).put("object", "response");
        r.putArray("output").addObject().put("type", "message").put("id", "msg_" + id);
        return r;
    }

    private long rows() throws SQLException {
        return db.call(c -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM stored_responses")) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    @Test
    void aResponseIsItsKeysAlone() {
        SqlResponses store = store(1 << 20, 1 << 30);
        store.put("resp_gw_a", "key-a", input(10), response("resp_gw_a")).await();

        ResponseStore.Stored found = store.find("resp_gw_a", "key-a").await();
        assertThat(found.response().path("id").asText()).isEqualTo("resp_gw_a");
        assertThat(found.items()).hasSize(2);
        assertThat(store.find("resp_gw_a", "key-b").await()).as("another key finds nothing").isNull();
        assertThat(store.remove("resp_gw_a", "key-b").await()).as("nor removes it").isFalse();
        assertThat(store.find("resp_gw_unknown", "key-a").await()).isNull();

        assertThat(store.remove("resp_gw_a", "key-a").await()).isTrue();
        assertThat(store.find("resp_gw_a", "key-a").await()).isNull();
        assertThat(store.remove("resp_gw_a", "key-a").await()).isFalse();
    }

    @Test
    void aResponseOverThePerResponseBoundIsNotWritten() throws SQLException {
        SqlResponses store = store(1000, 1 << 30);
        var refused = store.put("resp_gw_big", "key", input(2000), response("resp_gw_big"));
        assertThat(refused.failed()).isTrue();
        assertThat(refused.cause().getMessage()).contains("not stored");
        assertThat(rows()).isZero();
    }

    @Test
    void anUnusedResponseExpiresAndTheSweepDeletesIt() throws SQLException {
        SqlResponses store = store(1 << 20, 1 << 30);
        store.put("resp_gw_used", "key", input(10), response("resp_gw_used")).await();
        store.put("resp_gw_unused", "key", input(10), response("resp_gw_unused")).await();

        now.addAndGet(Duration.ofHours(5).toMillis());
        assertThat(store.find("resp_gw_used", "key").await()).as("a use starts its expiry again").isNotNull();
        now.addAndGet(Duration.ofHours(2).toMillis());

        assertThat(store.find(List.of("resp_gw_used", "resp_gw_unused"), "key").await()).containsOnlyKeys("resp_gw_used");
        assertThat(store.remove("resp_gw_unused", "key").await()).as("an expired one is not there to remove").isFalse();
        assertThat(store.sweep()).isEqualTo(1);
        assertThat(rows()).isEqualTo(1);
    }

    @Test
    void theSweepKeepsTheTotalBoundDroppingTheLeastRecentlyUsed() throws SQLException {
        SqlResponses store = store(1 << 20, 10_000);
        for (int i = 0; i < 10; i++) {
            store.put("resp_gw_" + i, "key", input(2_000), response("resp_gw_" + i)).await();
            now.addAndGet(1000);
        }
        // the oldest, used again, becomes the most recently used
        assertThat(store.find("resp_gw_0", "key").await()).isNotNull();

        store.sweep();

        // about 2 KB each: four fit in 10,000 bytes
        assertThat(rows()).isEqualTo(4);
        assertThat(store.find(List.of("resp_gw_0", "resp_gw_9", "resp_gw_8", "resp_gw_7"), "key").await())
                .containsOnlyKeys("resp_gw_0", "resp_gw_9", "resp_gw_8", "resp_gw_7");
    }
}
