package dev.modelgateway.accounts.ledger;

import dev.modelgateway.accounts.UsageRecord;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.store.Database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;

/** The {@code usage_ledger} table and the running spend kept beside it. Blocking. Not final: tests make it fail. */
public class Ledger {
    private final Database db;

    public Ledger(Database db) {
        this.db = db;
    }

    /**
     * Writes a batch and adds the cost of its new rows to each key's and team's running spend, all in one
     * transaction. A row whose id is in the table already (a journal replayed after a crash that came after the
     * write, or a backup restored) is skipped, and its cost is not counted twice.
     *
     * @return how many rows of the batch were new
     */
    public int append(List<LedgerEntry> batch) throws SQLException {
        return db.transaction(c -> {
            int[] inserted;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO usage_ledger (id, trace_id, key_id,"
                    + " public_model, answered_model, vendor, input_tokens, cache_read_tokens, cache_write_5m_tokens,"
                    + " cache_write_1h_tokens, output_tokens, reasoning_tokens, attempts, status, latency_ms, ttft_ms,"
                    + " at_ms, cost_usd_e10, team_id, web_search_calls, price_version, price_unknown, deployment,"
                    + " user_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
                for (LedgerEntry e : batch) {
                    UsageRecord r = e.record();
                    ps.setString(1, e.id());
                    ps.setString(2, r.traceId());
                    ps.setString(3, e.keyId());
                    ps.setString(4, r.publicModel());
                    ps.setString(5, r.answeredModel());
                    ps.setString(6, r.vendor());
                    ps.setLong(7, e.usage().inputTokens());
                    ps.setLong(8, e.usage().cacheReadTokens());
                    ps.setLong(9, e.usage().cacheWrite5mTokens());
                    ps.setLong(10, e.usage().cacheWrite1hTokens());
                    ps.setLong(11, e.usage().outputTokens());
                    ps.setLong(12, e.usage().reasoningTokens());
                    ps.setInt(13, r.attempts());
                    ps.setInt(14, r.status());
                    ps.setLong(15, r.latencyMs());
                    if (r.timeToFirstTokenMs() == null) ps.setNull(16, Types.BIGINT);
                    else ps.setLong(16, r.timeToFirstTokenMs());
                    ps.setLong(17, e.at().toEpochMilli());
                    ps.setLong(18, e.costE10());
                    ps.setString(19, e.teamId());
                    ps.setLong(20, e.usage().webSearchCalls());
                    ps.setString(21, e.priceVersion());
                    ps.setInt(22, e.priceUnknown() ? 1 : 0);
                    ps.setString(23, r.deployment());
                    ps.setString(24, r.userId());
                    ps.addBatch();
                }
                inserted = ps.executeBatch();
            }
            Map<String, Long> spend = new TreeMap<>(); // sorted: instances updating the same keys lock them in one order
            Map<String, Long> spans = new TreeMap<>();
            int added = 0;
            for (int i = 0; i < batch.size(); i++) {
                if (inserted[i] == 0) continue; // there already; SUCCESS_NO_INFO (-2) counts as new
                added++;
                LedgerEntry e = batch.get(i);
                spend.merge(e.keyId(), e.costE10(), Long::sum);
                for (String holder : e.holders()) {
                    for (String period : BudgetPeriod.all(e.at())) spans.merge(SpendTracker.slot(holder, period), e.costE10(), Long::sum);
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE api_keys SET spent_usd_e10 = spent_usd_e10 + ? WHERE id = ?")) {
                for (Map.Entry<String, Long> s : spend.entrySet()) {
                    ps.setLong(1, s.getValue());
                    ps.setString(2, s.getKey());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            addSpend(c, spans);
            return added;
        });
    }

    /**
     * The database's identity, which the journal's segments name (docs/accounts.md, "A ledger that loses nothing"):
     * made at the first call on a database and stored in it, so that a copy restored from a backup, wherever it is,
     * has the identity of the database it was taken from.
     */
    public String identity() throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO ledger_identity (singleton, id) VALUES (1, ?)"
                    + " ON CONFLICT (singleton) DO NOTHING")) {
                ps.setString(1, UUID.randomUUID().toString());
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM ledger_identity");
                 ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        });
    }

    /** Adds to {@code budget_spend} by {@link SpendTracker#slot}; an upsert both databases take. */
    static void addSpend(Connection c, Map<String, Long> spans) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO budget_spend (holder, period, spent_usd_e10)"
                + " VALUES (?, ?, ?) ON CONFLICT (holder, period) DO UPDATE"
                + " SET spent_usd_e10 = budget_spend.spent_usd_e10 + excluded.spent_usd_e10")) {
            for (Map.Entry<String, Long> s : spans.entrySet()) {
                if (s.getValue() == 0) continue;
                int bar = s.getKey().lastIndexOf('|');
                ps.setString(1, s.getKey().substring(0, bar));
                ps.setString(2, s.getKey().substring(bar + 1));
                ps.setLong(3, s.getValue());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** Every holder's spend in the spans current at {@code now}, by {@link SpendTracker#slot}. */
    public Map<String, Long> spendAt(Instant now) throws SQLException {
        List<String> periods = BudgetPeriod.all(now);
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT holder, period, spent_usd_e10 FROM budget_spend"
                    + " WHERE period IN (?, ?, ?, ?)")) {
                for (int i = 0; i < periods.size(); i++) ps.setString(i + 1, periods.get(i));
                try (ResultSet rs = ps.executeQuery()) {
                    Map<String, Long> spent = new HashMap<>();
                    while (rs.next()) spent.put(SpendTracker.slot(rs.getString(1), rs.getString(2)), rs.getLong(3));
                    return spent;
                }
            }
        });
    }

    /** The condition of {@link UsageQuery#within}: its teams' rows, or its owner's keys' (an owner null matches none). */
    private static String within(UsageQuery.Within w) {
        if (w == null) return "";
        String teams = w.teams().isEmpty() ? "" : "team_id IN (" + String.join(", ", Collections.nCopies(w.teams().size(), "?")) + ") OR ";
        return " AND (" + teams + "key_id IN (SELECT id FROM api_keys WHERE owner_user_id = ?))";
    }

    public List<UsageQuery.Group> usage(UsageQuery q) throws SQLException {
        String groups = q.groupBy().stream().map(g -> g.sql).collect(Collectors.joining(", "));
        String sql = "SELECT " + (groups.isEmpty() ? "" : groups + ", ")
                + "COUNT(*), SUM(CASE WHEN status >= 400 THEN 1 ELSE 0 END), SUM(input_tokens), SUM(cache_read_tokens),"
                + " SUM(cache_write_5m_tokens), SUM(cache_write_1h_tokens), SUM(output_tokens), SUM(reasoning_tokens),"
                + " SUM(cost_usd_e10) FROM usage_ledger WHERE at_ms >= ? AND at_ms < ?"
                + (q.keyId() == null ? "" : " AND key_id = ?")
                + (q.userId() == null ? "" : " AND user_id = ?")
                + within(q.within())
                + (groups.isEmpty() ? "" : " GROUP BY " + groups + " ORDER BY " + groups);
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setLong(1, q.from().toEpochMilli());
                ps.setLong(2, q.to().toEpochMilli());
                int next = 3;
                if (q.keyId() != null) ps.setString(next++, q.keyId());
                if (q.userId() != null) ps.setString(next++, q.userId());
                if (q.within() != null) {
                    for (String team : q.within().teams()) ps.setString(next++, team);
                    ps.setString(next, q.within().owner());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    List<UsageQuery.Group> result = new ArrayList<>();
                    int n = q.groupBy().size();
                    while (rs.next()) {
                        if (rs.getLong(n + 1) == 0) continue; // aggregates without GROUP BY yield one all-null row
                        List<String> labels = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) labels.add(q.groupBy().get(i).label(rs.getObject(i + 1)));
                        result.add(new UsageQuery.Group(labels, new UsageTotals(rs.getLong(n + 1), rs.getLong(n + 2),
                                rs.getLong(n + 3), rs.getLong(n + 4), rs.getLong(n + 5), rs.getLong(n + 6),
                                rs.getLong(n + 7), rs.getLong(n + 8), rs.getLong(n + 9))));
                    }
                    return result;
                }
            }
        });
    }
}
