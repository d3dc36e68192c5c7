package dev.modelgateway.accounts.ledger;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Usage over {@code [from, to)}, optionally of one key and of one user, grouped by the given dimensions in order;
 * {@code within} narrows it to some teams' keys and one owner's (a principal's reach below the organisation), null:
 * every key.
 */
public record UsageQuery(Instant from, Instant to, String keyId, String userId, List<UsageGrouping> groupBy, Within within) {

    /** Of every user and key. */
    public UsageQuery(Instant from, Instant to, String keyId, List<UsageGrouping> groupBy) {
        this(from, to, keyId, null, groupBy, null);
    }

    /** Of one user (or every user: null), every key. */
    public UsageQuery(Instant from, Instant to, String keyId, String userId, List<UsageGrouping> groupBy) {
        this(from, to, keyId, userId, groupBy, null);
    }

    /** Within a principal's reach. */
    public UsageQuery(Instant from, Instant to, String keyId, List<UsageGrouping> groupBy, Within within) {
        this(from, to, keyId, null, groupBy, within);
    }

    /** The rows of keys in {@code teams} or owned by {@code owner} (null: none). */
    public record Within(Set<String> teams, String owner) {
        public Within {
            teams = Set.copyOf(teams);
        }
    }

    public record Group(List<String> labels, UsageTotals totals) {}
}
