package dev.modelgateway.accounts;

import dev.modelgateway.canonical.Usage;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * The ledger's write-ahead journal (docs/accounts.md, "A ledger that loses nothing"): every usage row is appended
 * to a local file, one JSON line, before it is queued for the database. The append is one {@code write(2)} into the
 * page cache on the caller's thread, which a killed process cannot take back; a sync thread makes it survive a
 * crash of the machine too, with one {@code fsync} for every row appended since the last (group commit, at most
 * {@value #SYNC_PAUSE_MICROS} µs apart). A segment is deleted once the database has every row of it; a segment of
 * a process that died (its lock is free) is replayed into the database at the next start, idempotently by row id.
 *
 * <p>Each process holds its own segment under an exclusive file lock, so instances may share one directory; a
 * segment names the database its rows belong to (a hash of the URL), and only segments of this database are replayed.
 */
final class LedgerJournal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LedgerJournal.class);
    /** A segment beyond this size is sealed and a new one begun, so that written rows' files can go. */
    static final long SEGMENT_BYTES = 16L << 20;
    /**
     * A kill cannot lose an appended row (it is in the page cache); the fsync only guards against the machine's
     * crash, and it is not waited for. Syncing every 0.5 ms cost 28 µs of CPU per call at 7,000 calls/s (2,000
     * fsyncs a second, bench/tracing-overhead.sh); every 10 ms costs a machine crash at most the last 10 ms.
     */
    private static final long SYNC_PAUSE_MICROS = 10_000;
    private static final int IDLE_CHECKS = 10;
    private static final String SUFFIX = ".journal";

    /** One journal file: open for appends until sealed, deleted when every row of it is in the database. */
    final class Segment {
        private final Path path;
        private final FileChannel channel;
        private final FileLock lock;
        private final AtomicLong outstanding = new AtomicLong();
        private long size;
        private volatile boolean sealed;
        private boolean deleted;

        private Segment(Path path, FileChannel channel, FileLock lock) {
            this.path = path;
            this.channel = channel;
            this.lock = lock;
        }

        /** A row of this segment is in the database (or was dropped for good). */
        void done() {
            if (outstanding.decrementAndGet() == 0 && sealed) delete();
        }

        private synchronized void delete() {
            if (deleted) return;
            deleted = true;
            try {
                lock.release();
                channel.close();
                Files.deleteIfExists(path);
            } catch (IOException e) {
                LOG.warn("journal segment {} not deleted: {}", path, e.toString());
            }
        }
    }

    private final Path dir;
    private final String database;
    private final Thread syncer;
    private Segment current;
    /** Segments sealed since the last sync, whose last rows the sync thread makes durable (guarded by this). */
    private final List<Segment> sealedUnsynced = new ArrayList<>();
    private final AtomicLong appended = new AtomicLong();
    private volatile long synced;
    private volatile boolean closed;
    /** The sync thread sleeps until an append wakes it. */
    private volatile boolean idle;

    private LedgerJournal(Path dir, String database) {
        this.dir = dir;
        this.database = database;
        this.syncer = Thread.ofPlatform().daemon().name("accounts-ledger-journal").unstarted(this::syncLoop);
    }

    /**
     * Opens a journal in {@code dir} for the database at {@code databaseUrl}, after handing the rows of every
     * segment left by a dead process of the same database to {@code replay} (which must have them in the database
     * when it returns; the segment is deleted then).
     */
    static LedgerJournal open(Path dir, String databaseUrl, Replay replay) {
        LedgerJournal journal = new LedgerJournal(dir, databaseId(databaseUrl));
        try {
            Files.createDirectories(dir);
            journal.replayLeftovers(replay);
            journal.current = journal.newSegment();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot use the ledger journal directory " + dir.toAbsolutePath()
                    + " (GATEWAY_LEDGER_JOURNAL_DIR)", e);
        }
        journal.syncer.start();
        return journal;
    }

    @FunctionalInterface
    interface Replay {
        void write(List<LedgerEntry> rows) throws Exception;
    }

    /**
     * Appends {@code e} and returns the segment that holds it, whose {@link Segment#done} the writer calls once the
     * row is in the database. Synchronized: appends from every event loop go to one file in one order.
     */
    Segment append(LedgerEntry e) {
        byte[] line = (toJson(e).encode() + "\n").getBytes(StandardCharsets.UTF_8);
        Segment s;
        synchronized (this) {
            if (closed) throw new IllegalStateException("ledger journal closed");
            s = current;
            try {
                if (s.size + line.length > SEGMENT_BYTES && s.size > 0) {
                    s = rotate();
                }
                ByteBuffer b = ByteBuffer.wrap(line);
                while (b.hasRemaining()) s.channel.write(b);
                s.size += line.length;
            } catch (IOException ex) {
                throw new UncheckedIOException("ledger journal append failed", ex);
            }
            s.outstanding.incrementAndGet();
            appended.incrementAndGet();
        }
        if (idle) LockSupport.unpark(syncer);
        return s;
    }

    /** How many appends an fsync has made durable against a machine crash (for tests and metrics). */
    long synced() {
        return synced;
    }

    /** Stops syncing after a last fsync; segments whose rows are all written are deleted, the others kept for replay. */
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
        Segment s = syncAll();
        s.sealed = true;
        if (s.outstanding.get() == 0) s.delete();
        else LOG.error("{} usage rows not in the database at shutdown are kept in {} for the next start",
                s.outstanding.get(), s.path);
    }

    /**
     * Seals the current segment and begins a new one. Called on an event loop, so no fsync here: the sync thread
     * syncs the sealed segments' last rows ({@link #sealedUnsynced}) before the new segment's.
     */
    private Segment rotate() throws IOException {
        Segment old = current;
        sealedUnsynced.add(old);
        current = newSegment();
        old.sealed = true;
        if (old.outstanding.get() == 0) old.delete();
        return current;
    }

    private Segment newSegment() throws IOException {
        String name = "ledger-" + System.currentTimeMillis() + "-"
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()) + SUFFIX;
        Path path = dir.resolve(name);
        FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        FileLock lock = ch.lock();
        byte[] header = (new JsonObject().put("journal", 1).put("database", database).encode() + "\n")
                .getBytes(StandardCharsets.UTF_8);
        ch.write(ByteBuffer.wrap(header));
        Segment s = new Segment(path, ch, lock);
        s.size = header.length;
        return s;
    }

    /**
     * Syncs while rows come in, pausing {@value #SYNC_PAUSE_MICROS} µs between checks; after
     * {@value #IDLE_CHECKS} checks without a row it sleeps until an append wakes it, so an idle gateway costs no
     * wake-ups. (The appender sets {@code appended} then reads {@code idle}; this thread sets {@code idle} then
     * reads {@code appended}: one of them sees the other's write, so no row waits for a sync that never comes.)
     */
    private void syncLoop() {
        int quiet = 0;
        while (!closed) {
            long target = appended.get();
            if (target != synced) {
                quiet = 0;
                syncAll();
                synced = target;
            } else if (++quiet < IDLE_CHECKS) {
                LockSupport.parkNanos(SYNC_PAUSE_MICROS * 1000);
            } else {
                idle = true;
                if (appended.get() == synced && !closed) LockSupport.park();
                idle = false;
                quiet = 0;
            }
        }
    }

    /** Syncs the segments sealed since the last sync, then the current one, and returns the current one. */
    private Segment syncAll() {
        Segment s;
        List<Segment> sealed;
        synchronized (this) {
            s = current;
            sealed = List.copyOf(sealedUnsynced);
            sealedUnsynced.clear();
        }
        sealed.forEach(LedgerJournal::sync);
        sync(s);
        return s;
    }

    private static void sync(Segment s) {
        try {
            if (s.channel.isOpen()) s.channel.force(false);
        } catch (ClosedChannelException deleted) {
            // every row of it reached the database meanwhile: nothing left to make durable
        } catch (IOException e) {
            LOG.error("ledger journal fsync failed: " + e);
        }
    }

    /** Replays each segment of this database whose lock is free (its process is gone), then deletes it. */
    private void replayLeftovers(Replay replay) throws IOException {
        List<Path> segments;
        try (Stream<Path> files = Files.list(dir)) {
            segments = files.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        }
        for (Path p : segments) {
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                FileLock lock;
                try {
                    lock = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    continue; // this process's own
                }
                if (lock == null) continue; // a live process's
                List<String> lines = Files.readAllLines(p, StandardCharsets.UTF_8);
                if (lines.isEmpty() || !database.equals(header(lines.getFirst()))) {
                    lock.release();
                    continue;
                }
                List<LedgerEntry> rows = new ArrayList<>();
                for (String line : lines.subList(1, lines.size())) {
                    try {
                        rows.add(fromJson(new JsonObject(line)));
                    } catch (RuntimeException e) {
                        // a torn last line: the machine died mid-write, before the call's row was acknowledged
                        LOG.warn("journal {}: unreadable line skipped", p.getFileName());
                    }
                }
                try {
                    for (int i = 0; i < rows.size(); i += LedgerWriter.BATCH_ROWS) {
                        replay.write(rows.subList(i, Math.min(rows.size(), i + LedgerWriter.BATCH_ROWS)));
                    }
                } catch (Exception e) {
                    throw new IllegalStateException("replaying the ledger journal " + p + " failed; it is kept", e);
                }
                LOG.info("ledger journal {}: {} usage rows replayed", p.getFileName(), rows.size());
                lock.release();
                Files.delete(p);
            }
        }
    }

    private static String header(String line) {
        try {
            return new JsonObject(line).getString("database");
        } catch (DecodeException | ClassCastException e) {
            return null;
        }
    }

    /** Names the database without its credentials: a hash of the URL. */
    static String databaseId(String url) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(url.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    static JsonObject toJson(LedgerEntry e) {
        UsageRecord r = e.record();
        Usage u = e.usage();
        return new JsonObject().put("id", e.id()).put("trace", r.traceId()).put("key", e.keyId()).put("team", r.teamId())
                .put("model", r.publicModel()).put("answered", r.answeredModel()).put("vendor", r.vendor())
                .put("in", u.inputTokens()).put("cr", u.cacheReadTokens()).put("cw5", u.cacheWrite5mTokens())
                .put("cw1", u.cacheWrite1hTokens()).put("out", u.outputTokens()).put("rs", u.reasoningTokens())
                .put("ws", u.webSearchCalls()).put("attempts", r.attempts()).put("status", r.status())
                .put("latency", r.latencyMs()).put("ttft", r.timeToFirstTokenMs()).put("at", e.at().toEpochMilli())
                .put("cost", e.costE10()).put("prices", e.priceVersion()).put("unknown", e.priceUnknown());
    }

    static LedgerEntry fromJson(JsonObject j) {
        Usage u = new Usage(j.getLong("in"), j.getLong("cr"), j.getLong("cw5"), j.getLong("cw1"), j.getLong("out"),
                j.getLong("rs"), j.getLong("ws"));
        Instant at = Instant.ofEpochMilli(j.getLong("at"));
        UsageRecord r = new UsageRecord(j.getString("trace"), j.getString("key"), j.getString("model"),
                j.getString("answered"), j.getString("vendor"), u, j.getInteger("attempts"), j.getInteger("status"),
                j.getLong("latency"), j.getLong("ttft"), at, j.getString("team"));
        return new LedgerEntry(j.getString("id"), r, u, j.getString("key"), at, j.getLong("cost"), j.getString("prices"),
                j.getBoolean("unknown"), null);
    }
}
