package dev.modelgateway.accounts.ledger;

import java.time.Instant;
import java.util.List;

/** Usage over {@code [from, to)}, optionally of one key and of one user, grouped by the given dimensions in order. */
public record UsageQuery(Instant from, Instant to, String keyId, String userId, List<UsageGrouping> groupBy) {

    /** Of every user. */
    public UsageQuery(Instant from, Instant to, String keyId, List<UsageGrouping> groupBy) {
        this(from, to, keyId, null, groupBy);
    }

    public record Group(List<String> labels, UsageTotals totals) {}
}
