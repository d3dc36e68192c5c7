package dev.modelgateway.accounts.ledger;

import java.time.Instant;
import java.util.List;

/** Usage over {@code [from, to)}, optionally of one key, grouped by the given dimensions in order. */
public record UsageQuery(Instant from, Instant to, String keyId, List<UsageGrouping> groupBy) {

    public record Group(List<String> labels, UsageTotals totals) {}
}
