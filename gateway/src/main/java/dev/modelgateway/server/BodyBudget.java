package dev.modelgateway.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes of request bodies the gateway may hold in memory at once, across all event loops. A request
 * reserves its declared length (or its route's whole limit when it declares none) before its body is read,
 * and gives it back when its response ends; a reservation beyond the budget is refused with a 503, so many
 * large bodies at once cannot exhaust the heap.
 */
final class BodyBudget {
    private final long capacity;
    private final AtomicLong reserved = new AtomicLong();

    BodyBudget(long capacity) {
        this.capacity = capacity;
    }

    boolean tryReserve(long bytes) {
        while (true) {
            long now = reserved.get();
            if (now + bytes > capacity) return false;
            if (reserved.compareAndSet(now, now + bytes)) return true;
        }
    }

    void release(long bytes) {
        reserved.addAndGet(-bytes);
    }

    long capacity() {
        return capacity;
    }
}
