package dev.modelgateway.accounts.ledger;

import dev.modelgateway.accounts.UsageRecord;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.store.TimeOrderedId;

import java.time.Instant;
import java.util.List;

/**
 * One ledger row: a request's usage record, priced with the price table {@code priceVersion}; {@code priceUnknown}
 * when the model's price was the operator's explicit {@code unknown} (the row costs 0 and is marked). Missing fields
 * of a careless record get safe defaults. {@code journaled}: the journal segment holding the row until the
 * database has it (null when not journaled).
 */
public record LedgerEntry(String id, UsageRecord record, Usage usage, String keyId, Instant at, long costE10,
                   String priceVersion, boolean priceUnknown, LedgerJournal.Segment journaled) {

    public static LedgerEntry of(UsageRecord r, long costE10, String priceVersion, boolean priceUnknown) {
        return new LedgerEntry(TimeOrderedId.next(), r, r.usage() == null ? Usage.ZERO : r.usage(),
                r.keyId() == null ? "unknown" : r.keyId(), r.at() == null ? Instant.now() : r.at(), costE10,
                priceVersion, priceUnknown, null);
    }

    /** This row as held by a journal segment, which hears when the database has it. */
    public LedgerEntry in(LedgerJournal.Segment segment) {
        return new LedgerEntry(id, record, usage, keyId, at, costE10, priceVersion, priceUnknown, segment);
    }

    /** The database has the row: its journal segment no longer needs it. */
    void written() {
        if (journaled != null) journaled.done();
    }

    String teamId() {
        return record.teamId();
    }

    /** Whose spend the row adds to: its key's, and its team's when the key had one. */
    public List<String> holders() {
        return teamId() == null ? List.of(keyId) : List.of(keyId, Team.HOLDER_PREFIX + teamId());
    }
}
