package dev.modelgateway.accounts.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Usage over {@code [from, to)}, optionally of one key, grouped by the given dimensions in order; {@code within}
 * narrows it to some teams' keys and one owner's (a principal's reach below the organisation), null: every key.
 */
public record UsageQuery(Instant from, Instant to, String keyId, List<UsageGrouping> groupBy, Within within) {

    public UsageQuery(Instant from, Instant to, String keyId, List<UsageGrouping> groupBy) {
        this(from, to, keyId, groupBy, null);
    }

    /** The rows of keys in {@code teams} or owned by {@code owner} (null: none). */
    public record Within(Set<String> teams, String owner) {
        public Within {
            teams = Set.copyOf(teams);
        }
    }

    public record Group(List<String> labels, UsageTotals totals) {}
}
