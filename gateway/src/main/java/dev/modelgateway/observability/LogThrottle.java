package dev.modelgateway.observability;

import dev.modelgateway.time.Ticker;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most one warning per interval for a failure that repeats: during an outage every call fails the same way, and a
 * line per call would bury the rest of the log. It counts the occurrences it held back, so that the next warning can
 * say how many there were. Thread-safe: the calls of every event loop may share one.
 */
public final class LogThrottle {
    private final long everyNanos;
    private final Ticker ticker;
    private final AtomicLong lastNanos;
    private final AtomicLong held = new AtomicLong();

    public LogThrottle(Duration every) {
        this(every, Ticker.SYSTEM);
    }

    LogThrottle(Duration every, Ticker ticker) {
        this.everyNanos = every.toNanos();
        this.ticker = ticker;
        this.lastNanos = new AtomicLong(ticker.nanos() - everyNanos);
    }

    /** Counts one occurrence; when a warning is due now, the occurrences since the last one (this one included), else 0. */
    public long occurred() {
        long n = held.incrementAndGet();
        long now = ticker.nanos();
        long last = lastNanos.get();
        if (now - last >= everyNanos && lastNanos.compareAndSet(last, now)) {
            held.addAndGet(-n);
            return n;
        }
        return 0;
    }

    /** Logs {@code message} at WARN when a warning is due. */
    public void warn(Logger log, String message) {
        if (occurred() > 0) log.warn(message);
    }
}
