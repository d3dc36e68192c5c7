package dev.modelgateway.sim;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides which directive applies to a request: a fault queued through {@code POST /_sim/faults} wins,
 * otherwise the directive found in the body. Enforces {@code times=N} with a counter per directive text.
 */
final class FaultBook {

    private static final class Queued {
        final Directive directive;
        int remaining;

        Queued(Directive d) {
            this.directive = d;
            this.remaining = d.times() > 0 ? d.times() : 1; // a queued fault without times fires once
        }
    }

    private final Map<String, Integer> seenByDirective = new HashMap<>();
    private final Map<String, ArrayDeque<Queued>> queuedByVendor = new HashMap<>();

    synchronized void queue(String vendor, Directive d) {
        queuedByVendor.computeIfAbsent(vendor, v -> new ArrayDeque<>()).addLast(new Queued(d));
    }

    synchronized void clearQueued() {
        queuedByVendor.clear();
    }

    synchronized void reset() {
        queuedByVendor.clear();
        seenByDirective.clear();
    }

    /** Returns the effective directive for this request, consuming queued faults and times budgets. */
    synchronized Directive resolve(String vendor, Directive fromBody) {
        ArrayDeque<Queued> q = queuedByVendor.get(vendor);
        if (q != null && !q.isEmpty()) {
            Queued head = q.peekFirst();
            if (--head.remaining <= 0) q.pollFirst();
            return head.directive;
        }
        if (fromBody.isNone() || fromBody.times() < 0) return fromBody;
        int seen = seenByDirective.merge(fromBody.text(), 1, Integer::sum);
        return seen <= fromBody.times() ? fromBody : fromBody.withoutFaults();
    }
}
