package dev.modelgateway.services;

import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.store.Database;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The owners of vendor B objects in PostgreSQL: first writer wins, expiry, sweep, delete. */
@ExternalStores
class SqlOwnersTest {
    private SharedStores stores;
    private Database db;
    private Vertx vertx;
    private final AtomicLong now = new AtomicLong(1_000_000);
    private SqlOwners owners;

    @BeforeEach
    void open() throws SQLException {
        stores = new SharedStores();
        db = Database.open(stores.databaseUrl(), SharedServices.SCHEMA);
        vertx = Vertx.vertx();
        owners = new SqlOwners(vertx, db, now::get, false);
    }

    @AfterEach
    void close() throws SQLException {
        vertx.close().await();
        db.close();
        stores.close();
    }

    @Test
    void theFirstOwnerStaysUntilItExpiresAndIsSwept() throws SQLException {
        owners.put("resp_1", "key-a", 10_000).await();
        owners.put("resp_1", "key-b", 10_000).await();
        assertThat(owners.get("resp_1").await()).as("first writer wins").isEqualTo("key-a");
        assertThat(owners.get("resp_unknown").await()).isNull();

        now.addAndGet(10_000);
        assertThat(owners.get("resp_1").await()).as("expired").isNull();
        assertThat(owners.sweep()).isEqualTo(1);

        owners.put("resp_2", "key-a", 10_000).await();
        owners.delete("resp_2").await();
        assertThat(owners.get("resp_2").await()).isNull();
    }
}
