package dev.modelgateway.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Arrival-ordered log of vendor requests. Bounded (oldest dropped) so long benchmarks cannot exhaust memory.
 * Entries are mutable only in their "client closed early" flag, which is learnt after the fact.
 */
final class RequestLog {

    static final class Entry {
        final String vendor, method, path, body;
        final Map<String, String> headers;
        volatile boolean clientClosedEarly;

        Entry(String vendor, String method, String path, Map<String, String> headers, String body) {
            this.vendor = vendor;
            this.method = method;
            this.path = path;
            this.headers = headers;
            this.body = body;
        }

        ReceivedRequest snapshot() {
            return new ReceivedRequest(vendor, method, path, headers, body, clientClosedEarly);
        }
    }

    private final int capacity;
    private final ArrayDeque<Entry> entries = new ArrayDeque<>();

    RequestLog(int capacity) {
        this.capacity = capacity;
    }

    synchronized Entry add(Entry e) {
        if (entries.size() >= capacity) entries.pollFirst();
        entries.addLast(e);
        return e;
    }

    synchronized List<ReceivedRequest> snapshot() {
        List<ReceivedRequest> out = new ArrayList<>(entries.size());
        for (Entry e : entries) out.add(e.snapshot());
        return out;
    }

    synchronized void clear() {
        entries.clear();
    }
}
