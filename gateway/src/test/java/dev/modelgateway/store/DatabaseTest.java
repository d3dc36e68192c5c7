package dev.modelgateway.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.ResultSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatabaseTest {
    @TempDir
    Path dir;

    @Test
    void sqliteFileIsCreatedAndMigratedOnceWithItsOwnHistory() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("nested/data/gateway.db");
        try (Database db = Database.open(url, "accounts")) {
            assertThat(db.vendor()).isEqualTo(Database.Vendor.SQLITE);
        }
        try (Database db = Database.open(url, "accounts")) { // reopening applies nothing twice
            int applied = db.call(c -> {
                try (ResultSet rs = c.createStatement().executeQuery(
                        "SELECT COUNT(*) FROM accounts_schema_history WHERE success = 1 AND version = '1'")) {
                    rs.next();
                    return rs.getInt(1);
                }
            });
            assertThat(applied).isEqualTo(1);
        }
        assertThat(dir.resolve("nested/data/gateway.db")).exists();
    }

    @Test
    void transactionRollsBackOnFailure() throws Exception {
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("t.db"), "accounts")) {
            assertThatThrownBy(() -> db.transaction(c -> {
                c.createStatement().executeUpdate("INSERT INTO api_keys (id, name, key_hash, key_prefix, created_at_ms)"
                        + " VALUES ('k', 'n', 'h', 'p', 0)");
                throw new IllegalStateException("boom");
            })).hasMessage("boom");
            int rows = db.call(c -> {
                try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM api_keys")) {
                    rs.next();
                    return rs.getInt(1);
                }
            });
            assertThat(rows).isZero();
        }
    }

    @Test
    void otherDatabasesAreRefusedByName() {
        assertThatThrownBy(() -> Database.open("jdbc:mysql://localhost/x", "accounts"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:mysql");
    }
}
