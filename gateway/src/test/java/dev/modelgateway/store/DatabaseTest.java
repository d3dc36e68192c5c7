package dev.modelgateway.store;

import dev.modelgateway.accounts.Accounts;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatabaseTest {
    @TempDir
    Path dir;

    @Test
    void sqliteFileIsCreatedAndMigratedOnceWithItsOwnHistory() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("nested/data/gateway.db");
        int applied;
        try (Database db = Database.open(url, Accounts.SCHEMA)) {
            assertThat(db.vendor()).isEqualTo(Database.Vendor.SQLITE);
            applied = db.call(DatabaseTest::historyRows);
        }
        assertThat(applied).isPositive();
        try (Database db = Database.open(url, Accounts.SCHEMA)) { // reopening applies nothing twice
            assertThat(db.call(DatabaseTest::historyRows)).isEqualTo(applied);
        }
        assertThat(dir.resolve("nested/data/gateway.db")).exists();
    }

    @Test
    void aDatabaseBehindTheNewestMigrationIsMigratedOnOpen() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("old.db");
        // what an older gateway left: the accounts tables up to version 3
        Flyway.configure().dataSource(url, null, null).locations("classpath:db/migration/accounts")
                .table("accounts_schema_history").target("3").load().migrate();
        try (Database db = Database.open(url, Accounts.SCHEMA)) {
            String newest = db.call(c -> {
                try (ResultSet rs = c.createStatement().executeQuery(
                        "SELECT version FROM accounts_schema_history WHERE success = 1 ORDER BY installed_rank DESC LIMIT 1")) {
                    rs.next();
                    return rs.getString(1);
                }
            });
            assertThat(newest).isEqualTo(Accounts.SCHEMA.newestVersion());
            // V4's column is there
            db.call(c -> c.createStatement().executeQuery("SELECT max_concurrent FROM api_keys").next());
        }
    }

    /** A start skips Flyway when the history reaches this version, so it must be the newest migration. */
    @Test
    void theAccountsSchemaNamesItsNewestMigration() throws Exception {
        Path migrations = Path.of(Database.class.getResource("/db/migration/accounts").toURI());
        Pattern name = Pattern.compile("V(\\d+)__.*\\.sql");
        int newest;
        try (Stream<Path> files = Files.list(migrations)) {
            newest = files.map(f -> name.matcher(f.getFileName().toString())).filter(Matcher::matches)
                    .mapToInt(m -> Integer.parseInt(m.group(1))).max().orElseThrow();
        }
        assertThat(Accounts.SCHEMA.newestVersion()).isEqualTo(Integer.toString(newest));
    }

    @Test
    void transactionRollsBackOnFailure() throws Exception {
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("t.db"), Accounts.SCHEMA)) {
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
        assertThatThrownBy(() -> Database.open("jdbc:mysql://localhost/x", Accounts.SCHEMA))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:mysql");
    }

    private static int historyRows(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM accounts_schema_history WHERE success = 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
