package dev.modelgateway.accounts.ledger;

import dev.modelgateway.access.Actor;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.accounts.DatabaseAdministration;
import dev.modelgateway.accounts.Fixtures;
import dev.modelgateway.accounts.UsageRecord;
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
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

import static dev.modelgateway.accounts.Fixtures.await;
import static org.assertj.core.api.Assertions.assertThat;

/** The ledger journal: replayed at start, idempotently by row id, and gone once the database has every row. */
class LedgerJournalTest {
    /** A database's identity, for the tests of the journal alone. */
    static final String DATABASE = UUID.randomUUID().toString();

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
        String key = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("k", List.of(), null, null, null, null), false)).key().id();
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
        String identity;
        try (var db = dev.modelgateway.store.Database.open(url(), Accounts.SCHEMA)) {
            Ledger ledger = new Ledger(db);
            ledger.append(List.of(a));
            identity = ledger.identity();
        }
        segment("ledger-1-dead.journal", identity, a, b);
        segment("ledger-2-other.journal", UUID.randomUUID().toString(), entry(key));

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
        try (LedgerJournal journal = LedgerJournal.open(journalDir(), DATABASE, Duration.ZERO, rows -> 0)) {
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
        try (LedgerJournal journal = LedgerJournal.open(journalDir(), DATABASE, Duration.ZERO, r -> 0)) {
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
        try (LedgerJournal again = LedgerJournal.open(journalDir(), DATABASE, Duration.ZERO, batch -> {
            replayed.addAll(batch);
            return batch.size();
        })) {
            List<String> expected = new java.util.ArrayList<>();
            for (int i = 0; i < rows.size(); i++) if (segments.get(i) != segments.getFirst()) expected.add(rows.get(i).id());
            assertThat(replayed).extracting(LedgerEntry::id).containsExactlyElementsOf(expected);
            assertThat(replayed.getLast()).usingRecursiveComparison().ignoringFields("at", "record.at", "journaled")
                    .isEqualTo(rows.getLast());
            assertThat(replayed.getLast().at().toEpochMilli()).isEqualTo(rows.getLast().at().toEpochMilli());
        }
        assertThat(journalFiles()).as("a clean stop with nothing outstanding").isEmpty();
    }

    @Test
    void writtenSegmentsAreKeptAndReplayedIntoARestoredBackupOnce() throws Exception {
        AccountsConfig keeping = new AccountsConfig(url(), null, null, null, 0, journalDir(), false, Duration.ofHours(24), null);
        Accounts accounts = await(Accounts.open(vertx, keeping, Fixtures.PRICES));
        String key = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("k", List.of(), null, null, null, null), false)).key().id();
        accounts.record(Fixtures.usage(key, "platform/vendorA-large", new Usage(1000, 0, 0, 0, 100, 0), 200, Instant.now()));
        awaitWritten(accounts);
        Path backup = dir.resolve("backup.db");
        dev.modelgateway.store.Database.backup(url(), backup);
        for (int i = 0; i < 3; i++) {
            accounts.record(Fixtures.usage(key, "platform/vendorA-large", new Usage(2000, 0, 0, 0, 10, 0), 200, Instant.now()));
        }
        await(accounts.close());
        long spent = count("SELECT spent_usd_e10 FROM api_keys");
        assertThat(journalFiles()).as("every row written: the segment kept as written, not for the start's replay")
                .singleElement().satisfies(p -> assertThat(p.getFileName().toString()).endsWith(".written"));
        segment("ledger-0-other.journal", UUID.randomUUID().toString(), entry(key)); // another database's

        // the database is lost; the backup, taken after the first row, is restored in its place
        for (String suffix : List.of("", "-wal", "-shm")) Files.deleteIfExists(Path.of(dir.resolve("gateway.db") + suffix));
        Files.copy(backup, dir.resolve("gateway.db"));
        assertThat(count("SELECT COUNT(*) FROM usage_ledger")).isEqualTo(1);
        try (DatabaseAdministration restored = DatabaseAdministration.open(keeping)) {
            assertThat(restored.replayJournal(journalDir())).as("the row of the backup skipped, the three after it added")
                    .isEqualTo(new DatabaseAdministration.JournalReplay(1, 4, 3));
            assertThat(restored.replayJournal(journalDir())).as("once").isEqualTo(new DatabaseAdministration.JournalReplay(1, 4, 0));
        }
        assertThat(count("SELECT COUNT(DISTINCT id) FROM usage_ledger")).isEqualTo(4);
        assertThat(count("SELECT spent_usd_e10 FROM api_keys")).as("each row's cost once").isEqualTo(spent)
                .isEqualTo(count("SELECT SUM(cost_usd_e10) FROM usage_ledger"));
    }

    @Test
    void writtenSegmentsOlderThanTheirRetentionAreDeleted() throws Exception {
        Files.createDirectories(journalDir());
        Path old = Files.writeString(journalDir().resolve("ledger-1-old.written"), "{}\n");
        Path recent = Files.writeString(journalDir().resolve("ledger-2-recent.written"), "{}\n");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofHours(25))));
        Files.setLastModifiedTime(recent, FileTime.from(Instant.now().minus(Duration.ofHours(23))));
        try (LedgerJournal journal = LedgerJournal.open(journalDir(), DATABASE, Duration.ofHours(24), rows -> 0)) {
            assertThat(old).doesNotExist();
            assertThat(recent).exists();
        }
    }

    private static void awaitWritten(Accounts accounts) {
        Eventually.until("the ledger written", () -> accounts.ledgerQueued() == 0);
    }

    private List<Path> journalFiles() throws java.io.IOException {
        try (var files = Files.list(journalDir())) {
            return files.toList();
        }
    }

    private static void awaitSynced(LedgerJournal journal, long n) {
        assertThat(Eventually.value(n + " rows synced", journal::synced, synced -> synced >= n)).isEqualTo(n);
    }

    @Test
    void aRowsUserIsReplayedAndALineJournaledBeforeRowsHadUsersReplaysWithNone() throws Exception {
        Accounts accounts = open();
        String key = await(accounts.admin().createKey(Actor.system("test"), new KeySettings("k", List.of(), null, null, null, null), false)).key().id();
        await(accounts.close());
        String identity;
        try (var db = dev.modelgateway.store.Database.open(url(), Accounts.SCHEMA)) {
            identity = new Ledger(db).identity();
        }
        UsageRecord r = Fixtures.usage(key, "platform/vendorA-large", new Usage(10, 0, 0, 0, 1, 0), 200, Instant.now());
        LedgerEntry withUser = LedgerEntry.of(new UsageRecord(r.traceId(), key, r.publicModel(), r.answeredModel(), r.vendor(), r.usage(),
                r.attempts(), r.status(), r.latencyMs(), r.timeToFirstTokenMs(), r.at(), null, null, "usr_someone"), 7, "v", false);
        LedgerEntry before = entry(key);
        JournalLine line = new JournalLine().encode(withUser);
        String current = new String(line.bytes(), 0, line.length(), StandardCharsets.UTF_8);
        line.encode(before);
        String old = new String(line.bytes(), 0, line.length(), StandardCharsets.UTF_8).replace(",\"user\":null", "");
        assertThat(old).doesNotContain("user");
        Files.createDirectories(journalDir());
        Files.writeString(journalDir().resolve("ledger-1-dead.journal"), "{\"journal\":1,\"database\":\"" + identity + "\"}\n"
                + current + old, StandardCharsets.UTF_8);

        accounts = open();
        assertThat(count("SELECT COUNT(*) FROM usage_ledger")).isEqualTo(2);
        assertThat(count("SELECT COUNT(*) FROM usage_ledger WHERE user_id = 'usr_someone' AND id = '" + withUser.id() + "'")).isEqualTo(1);
        assertThat(count("SELECT COUNT(*) FROM usage_ledger WHERE user_id IS NULL AND id = '" + before.id() + "'")).isEqualTo(1);
        await(accounts.close());
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
