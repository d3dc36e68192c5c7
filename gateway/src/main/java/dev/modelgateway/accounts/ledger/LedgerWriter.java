package dev.modelgateway.accounts.ledger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes ledger entries off the request path: one background thread collects up to {@value #BATCH_ROWS}
 * entries or {@value #BATCH_WINDOW_MS} ms worth and writes them in one transaction, retrying while the
 * database is down. Between writes it refreshes the spend cache. An {@link Error} (an OutOfMemoryError under
 * load) does not end the thread: the batch in hand is kept and tried again, or usage would silently stop being
 * saved. What is still queued when the process dies is in the {@link LedgerJournal}, replayed at the next start;
 * rows given up on at shutdown stay there too.
 */
public final class LedgerWriter {
    static final int BATCH_ROWS = 500;
    static final long BATCH_WINDOW_MS = 250;
    /** How often a filling window checks whether a whole batch is already queued. */
    private static final long FILL_CHECK_MS = 25;
    /** A bound on memory if the database stays down: beyond it new records are dropped and logged. */
    private static final int QUEUE_CAPACITY = 1_000_000;
    private static final int ATTEMPTS_WHEN_CLOSING = 5;
    private static final Logger LOG = LoggerFactory.getLogger(LedgerWriter.class);

    private final BlockingQueue<LedgerEntry> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
    /** Rows taken and not yet written or given up on: the queue's, and the batch the writer holds. */
    private final AtomicInteger unwritten = new AtomicInteger();
    private final Ledger ledger;
    private final AfterWrite afterWrite;

    @FunctionalInterface
    public interface AfterWrite {
        void written(List<LedgerEntry> batch) throws SQLException;
    }
    private final SpendTracker spend;
    private final InstantSource clock;
    private final long refreshEveryMs;
    private final Thread thread;
    private volatile boolean closing;
    private long lastRefresh;

    public LedgerWriter(Ledger ledger, SpendTracker spend, Duration refreshEvery) {
        this(ledger, spend, refreshEvery, InstantSource.system(), batch -> { });
    }

    /**
     * @param clock      when the spend is next refreshed, and how long the oldest row has waited
     * @param afterWrite what follows each batch in the database (alerts of the budgets it reached)
     */
    public LedgerWriter(Ledger ledger, SpendTracker spend, Duration refreshEvery, InstantSource clock, AfterWrite afterWrite) {
        this.afterWrite = afterWrite;
        this.clock = clock;
        this.ledger = ledger;
        this.spend = spend;
        this.refreshEveryMs = refreshEvery.toMillis();
        this.lastRefresh = clock.millis();
        this.thread = Thread.ofPlatform().daemon().name("accounts-ledger-writer").unstarted(this::run);
    }

    public void start() {
        thread.start();
    }

    public void submit(LedgerEntry e) {
        if (closing) {
            LOG.warn("usage record after close dropped: trace {}", e.record().traceId());
            return;
        }
        spend.queued(e);
        unwritten.incrementAndGet();
        if (!queue.offer(e)) {
            unwritten.decrementAndGet();
            spend.dropped(List.of(e));
            LOG.error("ledger queue full ({} rows): usage record dropped, trace {}", QUEUE_CAPACITY,
                    e.record().traceId());
        }
    }

    /**
     * Rows waiting to be written, the batch being written included (a metric: docs/observability.md); 0 once every
     * row submitted so far is in the database or given up on.
     */
    public int queued() {
        return unwritten.get();
    }

    /** Milliseconds the oldest waiting row has waited, 0 when none waits (a metric: docs/observability.md). */
    public long lagMs() {
        LedgerEntry oldest = queue.peek();
        return oldest == null ? 0 : Math.max(0, clock.millis() - oldest.record().at().toEpochMilli());
    }

    /** Stops taking records and blocks until every queued one is written (or given up on). */
    public void closeAndFlush() throws InterruptedException {
        closing = true;
        thread.join();
    }

    private void run() {
        List<LedgerEntry> batch = List.of();
        int errorsWhileClosing = 0;
        while (!closing || !queue.isEmpty() || !batch.isEmpty()) {
            try {
                if (batch.isEmpty()) batch = nextBatch();
                if (!batch.isEmpty()) {
                    write(batch);
                    batch = List.of();
                }
                if (clock.millis() - lastRefresh >= refreshEveryMs) refreshSpend();
            } catch (InterruptedException e) {
                LOG.error("ledger writer interrupted with {} rows queued", queue.size() + batch.size());
                return;
            } catch (Error e) {
                if (closing && ++errorsWhileClosing >= ATTEMPTS_WHEN_CLOSING) {
                    spend.dropped(batch);
                    unwritten.addAndGet(-batch.size());
                    LOG.error("ledger writer failed at shutdown ({}), {} usage rows lost", e, batch.size());
                    batch = List.of();
                    continue;
                }
                LOG.error("ledger writer failed ({}); {} usage rows kept for the next try", e, batch.size());
                pause(100);
            }
        }
    }

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits for a first entry, then lets the window fill without waiting on the queue: a writer blocked in
     * {@code poll} is woken by every record, and on a busy gateway that is a thread switch per request on the
     * event loop's core. Sleeping in slices and draining costs a few wake-ups per window instead.
     */
    private List<LedgerEntry> nextBatch() throws InterruptedException {
        List<LedgerEntry> batch = new ArrayList<>();
        LedgerEntry first = queue.poll(BATCH_WINDOW_MS, TimeUnit.MILLISECONDS);
        if (first == null) return batch;
        batch.add(first);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(BATCH_WINDOW_MS);
        long left;
        while (!closing && queue.size() < BATCH_ROWS - 1 && (left = deadline - System.nanoTime()) > 0) {
            Thread.sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(left) + 1, FILL_CHECK_MS));
        }
        queue.drainTo(batch, BATCH_ROWS - 1);
        return batch;
    }

    private void write(List<LedgerEntry> batch) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                ledger.append(batch);
                spend.written(batch);
                batch.forEach(LedgerEntry::written);
                try {
                    afterWrite.written(batch);
                } catch (SQLException | RuntimeException e) {
                    LOG.warn("after-write step failed (the next batch of the same holders retries it): " + e);
                }
                unwritten.addAndGet(-batch.size());
                return;
            } catch (SQLException | RuntimeException e) {
                if (closing && attempt >= ATTEMPTS_WHEN_CLOSING) {
                    spend.dropped(batch);
                    unwritten.addAndGet(-batch.size());
                    LOG.error("ledger write failed at shutdown, " + batch.size() + " usage rows lost", e);
                    return;
                }
                LOG.warn("ledger write failed (attempt " + attempt + "), retrying", e);
                Thread.sleep(Math.min(5_000, 100L << Math.min(attempt, 6)));
            }
        }
    }

    private void refreshSpend() {
        lastRefresh = clock.millis();
        try {
            spend.refreshed(ledger.spendAt(clock.instant()));
        } catch (SQLException | RuntimeException e) {
            LOG.warn("spend refresh failed; budgets use the last known spend", e);
        }
    }
}
