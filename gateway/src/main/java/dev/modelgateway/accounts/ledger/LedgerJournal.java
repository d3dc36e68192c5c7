package dev.modelgateway.accounts.ledger;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * The ledger's write-ahead journal (docs/accounts.md, "A ledger that loses nothing"): every usage row is appended
 * to a local file, one JSON line, before it is queued for the database. The file is mapped into memory, so an
 * append is a copy into the page cache on the caller's thread, without a system call; a killed process cannot take
 * it back (the mapping is shared with the kernel's page cache). A sync thread makes the rows survive a crash of the
 * machine too, with one {@code msync} for every row appended since the last (group commit, at most
 * {@value #SYNC_PAUSE_MICROS} µs apart). A segment is deleted once the database has every row of it, or kept for a
 * while as a written segment ({@code *.written}) when {@code accounts.ledger_journal_keep_hours} says so; a segment of
 * a process that died (its lock is free) is replayed into the database at the next start, idempotently by row id.
 * {@link #replayAll} replays every segment kept, written ones included, into a database restored from a backup
 * (docs/operations/backup-and-restore.md).
 *
 * <p>Each process holds its own segment under an exclusive file lock, so instances may share one directory; a
 * segment names the database its rows belong to ({@link Ledger#identity}, stored in the database, so that a backup
 * restored under another URL is the same database), and only segments of this database are replayed.
 * Segments are written with zeros to their full size before they are mapped, by the sync thread ahead of need (when
 * the current one is half full): a full disk then fails that write, not a store into the mapping (a SIGBUS).
 */
public final class LedgerJournal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerJournal.class);
    /**
     * A segment's size. A full one is sealed and a new one begun, so that written rows' files can go; its pages
     * count in the process's RSS while mapped, so it is kept small (about 9,000 rows).
     */
    static final int SEGMENT_BYTES = 4 << 20;
    /**
     * A kill cannot lose an appended row (it is in the page cache); the sync only guards against the machine's
     * crash, and it is not waited for. Each sync costs the kernel's write-back and a journal commit, about 0.25 ms
     * of CPU whatever the rows: every 10 ms that was 6-8 µs per call at one connection (bench/journal-cost.sh
     * --conns 1); every 50 ms a machine crash may lose the last 50 ms (PostgreSQL's asynchronous commit flushes
     * every 200 ms).
     */
    private static final long SYNC_PAUSE_MICROS = 50_000;
    private static final int IDLE_CHECKS = 4;
    private static final String SUFFIX = ".journal";
    /** A segment whose rows are all in the database, kept for {@link #replayAll}. */
    private static final String WRITTEN = ".written";

    /** How a segment's file ends when the journal lets it go. */
    private enum End {
        /** Rows not yet in the database: left for the next start's replay. */
        KEPT_FOR_REPLAY,
        /** Every row in the database: kept as written for the retention time, or deleted. */
        WRITTEN,
        /** Never used: deleted. */
        UNUSED
    }
    private static final ThreadLocal<JournalLine> LINES = ThreadLocal.withInitial(JournalLine::new);

    /** One journal file: open for appends until sealed, deleted when every row of it is in the database. */
    final class Segment {
        private final Path path;
        private final FileChannel channel;
        private final FileLock lock;
        private final Arena arena = Arena.ofShared();
        private final MemorySegment map;
        private final AtomicLong outstanding = new AtomicLong();
        /** This journal's count of segments begun when this one was: the order of the names. */
        private final long order;
        /** Bytes appended (guarded by the journal). */
        private long size;
        /** Bytes synced (guarded by this). */
        private long syncedTo;
        private volatile boolean sealed;
        /** Unmapped and deleted (guarded by this). */
        private boolean deleted;

        private Segment(Path path, long order, FileChannel channel, FileLock lock, long size) throws IOException {
            this.path = path;
            this.order = order;
            this.channel = channel;
            this.lock = lock;
            this.map = channel.map(FileChannel.MapMode.READ_WRITE, 0, SEGMENT_BYTES, arena);
            this.size = size;
            this.syncedTo = size;
            open.add(this);
        }

        /** The segment's file. */
        Path path() {
            return path;
        }

        /** A row of this segment is in the database (or was dropped for good). */
        void done() {
            if (outstanding.decrementAndGet() == 0 && sealed) release(End.WRITTEN);
        }

        private void sealIfDone() {
            sealed = true;
            if (outstanding.get() == 0) release(End.WRITTEN);
        }

        private synchronized void sync(long upTo) {
            if (deleted || upTo <= syncedTo) return;
            try {
                map.asSlice(syncedTo, upTo - syncedTo).force();
                syncedTo = upTo;
            } catch (UncheckedIOException e) {
                LOG.error("ledger journal sync failed: " + e.getCause());
            }
        }

        /**
         * Unmaps and unlocks the file, once it is retired or left for the next start's replay (while locked, so that no
         * starting process replays it meanwhile); synchronized with {@link #sync}, so no sync runs on an unmapped
         * segment.
         */
        private synchronized void release(End end) {
            if (deleted) return;
            deleted = true;
            open.remove(this);
            try {
                arena.close();
                if (end == End.WRITTEN) retire(path);
                else if (end == End.UNUSED) Files.deleteIfExists(path);
                lock.release();
                channel.close();
            } catch (IOException e) {
                LOG.warn("journal segment {} not released: {}", path, e.toString());
            }
        }
    }

    private final Path dir;
    private final String database;
    /** How long a written segment is kept; zero: deleted at once. */
    private final Duration keepWritten;
    /** Every segment mapped: closing the journal releases them all. */
    private final Set<Segment> open = ConcurrentHashMap.newKeySet();
    private final Thread syncer;
    private Segment current;
    /** Segments sealed since the last sync, whose last rows the sync thread syncs (guarded by this). */
    private final List<Segment> sealedUnsynced = new ArrayList<>();
    /**
     * The next segment, made ready by the sync thread so that a rotation on an event loop does no I/O (without one,
     * after a failure to make it, the rotation makes it itself).
     */
    private volatile Segment spare;
    private final AtomicLong appended = new AtomicLong();
    private final AtomicLong begun = new AtomicLong();
    private volatile long synced;
    private volatile boolean closed;
    /** The sync thread sleeps until an append wakes it. */
    private volatile boolean idle;

    private LedgerJournal(Path dir, String database, Duration keepWritten) {
        this.dir = dir;
        this.database = database;
        this.keepWritten = keepWritten;
        this.syncer = Thread.ofPlatform().daemon().name("ledger-journal").unstarted(this::syncLoop);
    }

    /**
     * Opens a journal in {@code dir} for the database whose {@link Ledger#identity} is {@code database}, after handing
     * the rows of every segment left by a dead process of the same database to {@code replay} (which must have them in
     * the database when it returns; the segment is retired then).
     *
     * @param keepWritten how long a segment whose rows are all in the database is kept, for {@link #replayAll}
     */
    public static LedgerJournal open(Path dir, String database, Duration keepWritten, Replay replay) {
        LedgerJournal journal = new LedgerJournal(dir, database, keepWritten);
        try {
            Files.createDirectories(dir);
            journal.replayLeftovers(replay);
            journal.pruneWritten();
            journal.current = journal.newSegment();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the ledger journal directory " + dir.toAbsolutePath()
                    + " (accounts.ledger_journal_dir, GATEWAY_ACCOUNTS_LEDGER_JOURNAL_DIR)", e);
        }
        journal.syncer.start();
        return journal;
    }

    /** Writes journaled rows to the database, idempotently by row id ({@link Ledger#append}). */
    @FunctionalInterface
    public interface Replay {
        /** @return how many of the rows were not in the database yet */
        int write(List<LedgerEntry> rows) throws Exception;
    }

    /**
     * Appends {@code e} and returns the segment that holds it, whose {@link Segment#done} the writer calls once the
     * row is in the database. Synchronized: appends from every event loop go to one file in one order.
     */
    public Segment append(LedgerEntry e) {
        JournalLine line = LINES.get().encode(e);
        int n = line.length();
        Segment s;
        synchronized (this) {
            if (closed) throw new IllegalStateException("ledger journal closed");
            s = current;
            if (s.size + n > SEGMENT_BYTES) {
                if (n > SEGMENT_BYTES / 2) throw new IllegalArgumentException("usage row of " + n + " bytes");
                try {
                    s = rotate();
                } catch (IOException ex) {
                    throw new UncheckedIOException("ledger journal rotation failed", ex);
                }
            }
            MemorySegment.copy(line.bytes(), 0, s.map, ValueLayout.JAVA_BYTE, s.size, n);
            s.size += n;
            s.outstanding.incrementAndGet();
            appended.incrementAndGet();
        }
        if (idle) LockSupport.unpark(syncer);
        return s;
    }

    /** How many appends a sync has made durable against a machine crash (for tests and metrics). */
    long synced() {
        return synced;
    }

    /** Stops syncing after a last sync; segments whose rows are all written are deleted, the others kept for replay. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        LockSupport.unpark(syncer);
        try {
            syncer.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        syncAll();
        for (Segment s : List.copyOf(open)) {
            long left = s.outstanding.get();
            s.release(left == 0 ? End.WRITTEN : End.KEPT_FOR_REPLAY);
            if (left > 0) {
                LOG.error("{} usage rows not in the database at shutdown are kept in {} for the next start", left, s.path);
            }
        }
    }

    /**
     * Seals the current segment and begins the spare. Called on an event loop: the sync thread syncs the sealed
     * segment's last rows (and deletes it when done) before the new segment's.
     */
    private Segment rotate() throws IOException {
        Segment old = current;
        sealedUnsynced.add(old);
        Segment next = spare;
        spare = null;
        current = next != null ? next : newSegment();
        old.sealed = true;
        if (idle) LockSupport.unpark(syncer);
        return current;
    }

    /**
     * Begins a segment, named so that names sort in the order segments are begun (replay follows it): the time,
     * then this journal's count, then a random part for the other processes sharing the directory.
     */
    private Segment newSegment() throws IOException {
        long order = begun.incrementAndGet();
        String name = "ledger-%013d-%08d-%s%s".formatted(System.currentTimeMillis(), order,
                HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()), SUFFIX);
        Path path = dir.resolve(name);
        FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        try {
            FileLock lock = ch.lock();
            byte[] header = (new JsonObject().put("journal", 3).put("database", database).encode() + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            ByteBuffer zeros = ByteBuffer.allocate(64 << 10);
            for (long at = 0; at < SEGMENT_BYTES; at += zeros.capacity()) {
                zeros.clear();
                while (zeros.hasRemaining()) ch.write(zeros, at + zeros.position());
            }
            ch.write(ByteBuffer.wrap(header), 0);
            ch.force(true);
            return new Segment(path, order, ch, lock, header.length);
        } catch (IOException | RuntimeException e) {
            ch.close();
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /**
     * Syncs while rows come in, pausing {@value #SYNC_PAUSE_MICROS} µs between checks, and readies the next segment
     * once the current one is half full; after {@value #IDLE_CHECKS} checks without a row it sleeps until an append wakes it, so an idle gateway
     * costs no wake-ups. (The appender sets {@code appended} then reads {@code idle}; this thread sets {@code idle}
     * then reads {@code appended}: one of them sees the other's write, so no row waits for a sync that never comes.)
     */
    private void syncLoop() {
        int quiet = 0;
        while (!closed) {
            long target = appended.get();
            if (target != synced) {
                quiet = 0;
                boolean halfFull = syncAll();
                synced = target;
                if (halfFull && spare == null) prepareSpare();
            } else if (++quiet < IDLE_CHECKS) {
                LockSupport.parkNanos(SYNC_PAUSE_MICROS * 1000);
            } else {
                idle = true;
                // the journal as the blocker: a thread dump (and a test) tells this thread asleep
                if (appended.get() == synced && !closed) LockSupport.park(this);
                idle = false;
                quiet = 0;
            }
        }
    }

    private void prepareSpare() {
        try {
            Segment next = newSegment();
            synchronized (this) {
                // one begun after it may be current already (a rotation that found no spare begins its own): its
                // rows come first, so this one, whose name sorts before, must not hold later rows
                if (!closed && spare == null && next.order > current.order) {
                    spare = next;
                    return;
                }
            }
            next.release(End.UNUSED); // closed meanwhile, or overtaken
        } catch (IOException | RuntimeException e) {
            // a full disk: appends go on in the current segment, and a rotation tries again on its own
            LOG.error("ledger journal: no next segment ({}); retrying in 1 s", e.toString());
            LockSupport.parkNanos(1_000_000_000L);
        }
    }

    /**
     * Syncs the segments sealed since the last sync (deleting those the database has all of), then the current one;
     * true when that one is more than half full, time to ready the next.
     */
    private boolean syncAll() {
        Segment s;
        long size;
        List<Segment> sealed;
        synchronized (this) {
            s = current;
            size = s.size;
            sealed = List.copyOf(sealedUnsynced);
            sealedUnsynced.clear();
        }
        for (Segment old : sealed) {
            old.sync(old.size); // sealed: its size no longer changes
            old.sealIfDone();
        }
        s.sync(size);
        return size > SEGMENT_BYTES / 2;
    }

    /** Replays each segment of this database whose lock is free (its process is gone), then retires it. */
    private void replayLeftovers(Replay replay) throws IOException {
        for (Path p : segments(dir, SUFFIX)) {
            FileChannel opened;
            try {
                opened = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE);
            } catch (NoSuchFileException e) {
                continue; // gone since the listing: its process finished with it, or another start replayed it
            }
            try (FileChannel ch = opened) {
                FileLock lock;
                try {
                    lock = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    continue; // this process's own
                }
                if (lock == null) continue; // a live process's
                List<LedgerEntry> rows = rowsOf(p, database);
                if (rows == null) {
                    lock.release();
                    continue;
                }
                int added = write(rows, replay, p);
                LOG.info("ledger journal {}: {} usage rows replayed, {} of them new", p.getFileName(), rows.size(), added);
                // retired while still locked: released first, another start could lock and replay it again
                retire(p);
                lock.release();
            }
        }
    }

    /** What {@link #replayAll} did. */
    public record Replayed(int segments, long rows, long added) {
    }

    /**
     * Writes the rows of every segment of {@code dir} that belongs to {@code database} (a written segment kept, a dead
     * process's, a live process's as far as it has been appended) to {@code replay}, oldest first; deletes nothing.
     * Rows the database has are skipped by their id, so it may run any time, as often as wanted: after restoring a
     * backup, the rows written since the backup come back, once (docs/operations/backup-and-restore.md).
     */
    public static Replayed replayAll(Path dir, String database, Replay replay) throws IOException {
        List<Path> all = new ArrayList<>(segments(dir, SUFFIX));
        all.addAll(segments(dir, WRITTEN));
        all.sort(Comparator.comparing(Path::getFileName));
        int segments = 0;
        long rows = 0;
        long added = 0;
        for (Path p : all) {
            List<LedgerEntry> entries;
            try {
                entries = rowsOf(p, database);
            } catch (NoSuchFileException e) {
                continue; // a segment written, or pruned, since the listing: its rows are in the database
            }
            if (entries == null) continue;
            segments++;
            rows += entries.size();
            added += write(entries, replay, p);
        }
        return new Replayed(segments, rows, added);
    }

    private static int write(List<LedgerEntry> rows, Replay replay, Path segment) {
        int added = 0;
        try {
            for (int i = 0; i < rows.size(); i += LedgerWriter.BATCH_ROWS) {
                added += replay.write(rows.subList(i, Math.min(rows.size(), i + LedgerWriter.BATCH_ROWS)));
            }
        } catch (Exception e) {
            throw new IllegalStateException("replaying the ledger journal " + segment + " failed; it is kept", e);
        }
        return added;
    }

    /** A segment's rows, or null when it belongs to another database. */
    private static List<LedgerEntry> rowsOf(Path p, String database) throws IOException {
        List<String> lines = lines(p);
        if (lines.isEmpty() || !database.equals(header(lines.getFirst()))) return null;
        List<LedgerEntry> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            try {
                rows.add(JournalLine.decode(line));
            } catch (RuntimeException e) {
                // a torn last line: the machine died mid-write, before the call's row was acknowledged (or, in a live
                // process's segment, a row being appended as it is read: its process writes it)
                LOG.warn("journal {}: unreadable line skipped", p.getFileName());
            }
        }
        return rows;
    }

    /**
     * Deletes the segment whose rows are all in the database, or keeps it as written for {@link #keepWritten} and
     * deletes the written ones older than that (once a segment, about 9,000 rows: a directory listing).
     */
    private void retire(Path p) throws IOException {
        if (keepWritten.isZero()) {
            Files.deleteIfExists(p);
            return;
        }
        String name = p.getFileName().toString();
        Files.move(p, p.resolveSibling(name.substring(0, name.length() - SUFFIX.length()) + WRITTEN),
                StandardCopyOption.ATOMIC_MOVE);
        pruneWritten();
    }

    /** Deletes the written segments older than {@link #keepWritten} (the time of their last row). */
    private void pruneWritten() throws IOException {
        long before = System.currentTimeMillis() - keepWritten.toMillis();
        for (Path p : segments(dir, WRITTEN)) {
            try {
                if (Files.getLastModifiedTime(p).toMillis() < before) Files.deleteIfExists(p);
            } catch (NoSuchFileException e) {
                // another process sharing the directory pruned it
            }
        }
    }

    /** The files of {@code dir} ending in {@code suffix}, by name: in the order their segments were begun. */
    private static List<Path> segments(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    /** A segment's lines, up to the zeros a segment is padded with. */
    private static List<String> lines(Path p) throws IOException {
        byte[] bytes = Files.readAllBytes(p);
        int end = 0;
        while (end < bytes.length && bytes[end] != 0) end++;
        return new String(bytes, 0, end, StandardCharsets.UTF_8).lines().toList();
    }

    private static String header(String line) {
        try {
            return new JsonObject(line).getString("database");
        } catch (DecodeException | ClassCastException e) {
            return null;
        }
    }
}
