package dev.modelgateway.accounts.ledger;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.accounts.Fixtures;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static dev.modelgateway.accounts.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The ledger journal: replayed at start, idempotently by row id, and gone once the database has every row. */
class LedgerJournalTest {
    @TempDir
    Path dir;
    Vertx vertx;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() {
        await(vertx.close());
    }

    String url() {
        return "jdbc:sqlite:" + dir.resolve("gateway.db");
    }

    Path journalDir() {
        return dir.resolve("journal");
    }

    Accounts open() {
        return await(Accounts.open(vertx, new AccountsConfig(url(), null, null, null, 0, journalDir()), Fixtures.PRICES));
    }

    @Test
    void aCleanStopLeavesNoJournalAndALeftSegmentIsReplayedOnceByRowId() throws Exception {
        Accounts accounts = open();
        String key = await(accounts.admin().createKey("test", new KeySettings("k", List.of(), null, null, null, null), false)).key().id();
        accounts.record(Fixtures.usage(key, "platform/vendorA-large", new Usage(1000, 0, 0, 0, 100, 0), 200, Instant.now()));
        await(accounts.close());
        try (var files = Files.list(journalDir())) {
            assertThat(files.toList()).as("every row written: nothing to keep").isEmpty();
        }

        // a process died with rows a and b journaled, and only a in the database
        LedgerEntry a = entry(key);
        LedgerEntry b = entry(key);
        accounts = open();
        await(accounts.close());
        try (var db = dev.modelgateway.store.Database.open(url(), Accounts.SCHEMA)) {
            new Ledger(db).append(List.of(a));
        }
        segment("ledger-1-dead.journal", LedgerJournal.databaseId(url()), a, b);
        segment("ledger-2-other.journal", LedgerJournal.databaseId("jdbc:sqlite:/elsewhere.db"), entry(key));

        accounts = open();
        assertThat(count("SELECT COUNT(*) FROM usage_ledger")).isEqualTo(3);
        assertThat(count("SELECT COUNT(DISTINCT id) FROM usage_ledger")).isEqualTo(3);
        long expected = count("SELECT SUM(cost_usd_e10) FROM usage_ledger");
        assertThat(count("SELECT spent_usd_e10 FROM api_keys")).as("b's cost once, a's not again").isEqualTo(expected);
        assertThat(accounts.admin().spentE10(key)).isEqualTo(expected);
        await(accounts.close());
        try (var files = Files.list(journalDir())) {
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                    .as("another database's segment is not this gateway's to replay").containsExactly("ledger-2-other.journal");
        }
    }

    @Test
    void anIdleSyncThreadIsWokenByTheNextAppend() throws Exception {
        try (LedgerJournal journal = LedgerJournal.open(journalDir(), url(), rows -> { })) {
            journal.append(entry("k"));
            awaitSynced(journal, 1);
            Eventually.until("the sync thread asleep", () -> Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> LockSupport.getBlocker(t) == journal && t.getState() == Thread.State.WAITING));
            journal.append(entry("k"));
            awaitSynced(journal, 2);
        }
    }

    @Test
    void rowsAcrossSegmentsAreKeptUntilWrittenAndReplayedInOrder() throws Exception {
        List<LedgerEntry> rows = new java.util.ArrayList<>();
        List<LedgerJournal.Segment> segments = new java.util.ArrayList<>();
        try (LedgerJournal journal = LedgerJournal.open(journalDir(), url(), r -> { })) {
            // more than two segments' worth of rows, none of them in the database yet
            JournalLine line = new JournalLine();
            for (long bytes = 0; bytes < 2L * LedgerJournal.SEGMENT_BYTES + 100_000; ) {
                LedgerEntry e = entry("k" + rows.size());
                bytes += line.encode(e).length();
                rows.add(e);
                segments.add(journal.append(e));
            }
            assertThat(segments.stream().distinct().count()).isGreaterThanOrEqualTo(3);
            // the database gets the first segment's rows: that segment's file goes
            LedgerJournal.Segment first = segments.getFirst();
            for (LedgerJournal.Segment s : segments) if (s == first) s.done();
            Eventually.until("the written segment deleted", () -> !Files.exists(first.path()));
            // by name: the sync thread may also have made a spare meanwhile, or deleted one overtaken by a rotation
            assertThat(first.path()).doesNotExist();
            assertThat(segments.stream().distinct().filter(s -> s != first).map(LedgerJournal.Segment::path))
                    .as("the segments whose rows are not yet written").allMatch(Files::exists);
        }
        List<LedgerEntry> replayed = new java.util.ArrayList<>();
        try (LedgerJournal again = LedgerJournal.open(journalDir(), url(), replayed::addAll)) {
            List<String> expected = new java.util.ArrayList<>();
            for (int i = 0; i < rows.size(); i++) if (segments.get(i) != segments.getFirst()) expected.add(rows.get(i).id());
            assertThat(replayed).extracting(LedgerEntry::id).containsExactlyElementsOf(expected);
            assertThat(replayed.getLast()).usingRecursiveComparison().ignoringFields("at", "record.at", "journaled")
                    .isEqualTo(rows.getLast());
            assertThat(replayed.getLast().at().toEpochMilli()).isEqualTo(rows.getLast().at().toEpochMilli());
        }
        assertThat(journalFiles()).as("a clean stop with nothing outstanding").isEmpty();
    }

    private List<Path> journalFiles() throws java.io.IOException {
        try (var files = Files.list(journalDir())) {
            return files.toList();
        }
    }

    private static void awaitSynced(LedgerJournal journal, long n) {
        assertThat(Eventually.value(n + " rows synced", journal::synced, synced -> synced >= n)).isEqualTo(n);
    }

    private LedgerEntry entry(String key) {
        return LedgerEntry.of(Fixtures.usage(key, "platform/vendorA-large", new Usage(2000, 0, 0, 0, 10, 0), 200, Instant.now()),
                Money.toE10(Fixtures.LARGE.cost(new Usage(2000, 0, 0, 0, 10, 0))), "v", false);
    }

    private void segment(String name, String database, LedgerEntry... rows) throws Exception {
        StringBuilder text = new StringBuilder("{\"journal\":1,\"database\":\"" + database + "\"}\n");
        for (LedgerEntry e : rows) {
            JournalLine line = new JournalLine().encode(e);
            text.append(new String(line.bytes(), 0, line.length(), StandardCharsets.UTF_8));
        }
        text.append("{\"id\":\"torn"); // the machine died mid-line
        Files.writeString(journalDir().resolve(name), text, StandardCharsets.UTF_8);
    }

    private long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
