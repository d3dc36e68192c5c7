package dev.modelgateway.accounts.ledger;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.Fixtures;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.store.Database;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** The ledger writer outlives an Error (an OutOfMemoryError under load): usage keeps being saved, none is lost. */
class LedgerWriterTest {
    @TempDir
    Path dir;

    @Test
    void anErrorWhileWritingDoesNotEndTheWriterNorLoseTheBatch() throws Exception {
        try (Database db = Database.open("jdbc:sqlite:" + dir.resolve("ledger.db"), Accounts.SCHEMA)) {
            AtomicInteger calls = new AtomicInteger();
            Ledger failingOnce = new Ledger(db) {
                @Override
                public int append(List<LedgerEntry> batch) throws SQLException {
                    if (calls.incrementAndGet() == 1) throw new OutOfMemoryError("simulated");
                    return super.append(batch);
                }
            };
            LedgerWriter writer = new LedgerWriter(failingOnce, new SpendTracker(), Duration.ofMinutes(1));
            writer.start();

            writer.submit(LedgerEntry.of(Fixtures.usage("key_a", "m", new Usage(10, 0, 0, 0, 5, 0), 200, Instant.now()), 1, "v", false));
            waitForRows(db, 1);
            writer.submit(LedgerEntry.of(Fixtures.usage("key_a", "m", new Usage(1, 0, 0, 0, 1, 0), 200, Instant.now()), 1, "v", false));
            writer.closeAndFlush();

            assertThat(rows(db)).as("the batch in hand when the Error hit, and one written after it").isEqualTo(2);
            assertThat(calls.get()).isEqualTo(3);
        }
    }

    private static void waitForRows(Database db, int n) {
        Eventually.value(n + " rows", Duration.ofSeconds(10), () -> {
            try {
                return rows(db);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        }, rows -> rows >= n);
    }

    private static int rows(Database db) throws SQLException {
        return db.call(c -> {
            try (ResultSet rs = c.createStatement().executeQuery("SELECT count(*) FROM usage_ledger")) {
                rs.next();
                return rs.getInt(1);
            }
        });
    }
}
