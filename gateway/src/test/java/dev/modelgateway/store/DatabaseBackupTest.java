package dev.modelgateway.store;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The SQLite backup: a whole, consistent database file, taken while the gateway's pool keeps writing. */
class DatabaseBackupTest {
    @TempDir
    Path dir;

    @Test
    void aBackupTakenWhileRowsAreWrittenIsAConsistentDatabase() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("gateway.db");
        Path backup = dir.resolve("backup.db");
        try (Database db = Database.open(url, Accounts.SCHEMA)) {
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong written = new AtomicLong();
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                while (!stop.get()) {
                    try {
                        // each transaction two rows: a backup holding half of one would be torn
                        db.transaction(c -> insertPair(c, written.incrementAndGet()));
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            Eventually.until("writes going on", () -> written.get() >= 200);
            long before = written.get();
            Database.backup(url, backup);
            long after = written.get();
            stop.set(true);
            writer.join();

            long pairs = count("jdbc:sqlite:" + backup, "SELECT COUNT(*) FROM audit_log") / 2;
            assertThat(count("jdbc:sqlite:" + backup, "SELECT COUNT(*) FROM audit_log") % 2).as("no transaction torn").isZero();
            assertThat(pairs).as("the writes up to the backup's moment").isBetween(before - 1, after);
            assertThat(count("jdbc:sqlite:" + backup, "SELECT COUNT(*) FROM accounts_schema_history"))
                    .as("the schema's history comes along").isPositive();
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("the backup is one file, nothing left half-written").contains("backup.db").noneMatch(n -> n.endsWith(".partial"));
        }
    }

    @Test
    void aBackupRefusesPostgresqlAnExistingFileAndAMissingDatabase() throws Exception {
        assertThatThrownBy(() -> Database.backup("jdbc:postgresql://127.0.0.1:5432/gateway", dir.resolve("b.db")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pg_dump");
        assertThatThrownBy(() -> Database.backup("jdbc:sqlite:" + dir.resolve("none.db"), dir.resolve("b.db")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no SQLite database");
        assertThat(dir.resolve("none.db")).doesNotExist();
        String url = "jdbc:sqlite:" + dir.resolve("gateway.db");
        Database.open(url, Accounts.SCHEMA).close();
        Path taken = Files.writeString(dir.resolve("taken.db"), "an older backup");
        assertThatThrownBy(() -> Database.backup(url, taken)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exists");
        assertThat(taken).hasContent("an older backup");
    }

    private static Void insertPair(Connection c, long n) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO audit_log (id, at_ms, actor, action, target_type,"
                + " target_id) VALUES (?, ?, 'test', 'backup.test', 'key', ?)")) {
            for (String half : new String[]{"a", "b"}) {
                ps.setString(1, n + half);
                ps.setLong(2, n);
                ps.setString(3, "k" + n);
                ps.executeUpdate();
            }
        }
        return null;
    }

    private static long count(String url, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url); ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
