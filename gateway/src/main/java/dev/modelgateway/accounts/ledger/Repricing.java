package dev.modelgateway.accounts.ledger;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prices the ledger rows of a time range again with the current price table, after a price correction
 * (docs/accounts.md, "Prices"): each row's cost is computed from its raw usage, and the difference is carried to its
 * key's and team's spend in the same transaction, page by page. A row is priced as it was recorded: at the own price
 * of the deployment that served it when the current configuration still gives that deployment one, else at its
 * model's (docs/clouds.md, "Prices"). A row without a real price now ({@code unknown} or none) is left as it is.
 * Blocking.
 */
public final class Repricing {
    private static final int PAGE = 2_000;

    /** What a run changed; the totals are the range's costs before and after, in 1e-10 USD. */
    public record Result(long rows, long repriced, long skipped, long beforeE10, long afterE10, String priceVersion) {
        public ObjectNode json() {
            return Json.MAPPER.createObjectNode().put("object", "reprice").put("rows", rows).put("repriced", repriced)
                    .put("skipped_unpriced", skipped).put("cost_before_usd", Money.text(beforeE10))
                    .put("cost_after_usd", Money.text(afterE10)).put("price_version", priceVersion);
        }
    }

    private record Row(String id, String keyId, String teamId, String model, Usage usage, Instant at, long costE10,
                       String version, String deployment) {}

    private Repricing() {}

    public static Result run(Database db, PriceBook prices, Instant from, Instant to) throws SQLException {
        PriceTables.register(db, prices);
        String version = prices.version();
        long[] totals = new long[5];
        String after = "";
        while (true) {
            String start = after;
            String last = db.transaction(c -> page(c, prices, version, from, to, start, totals));
            if (last == null) break;
            after = last;
        }
        return new Result(totals[0], totals[1], totals[2], totals[3], totals[4], version);
    }

    /** One page of rows after id {@code after}; the last id read, or null when there were none. */
    private static String page(Connection c, PriceBook prices, String version, Instant from, Instant to, String after,
                               long[] totals) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT id, key_id, team_id, COALESCE(answered_model, public_model),"
                + " input_tokens, cache_read_tokens, cache_write_5m_tokens, cache_write_1h_tokens, output_tokens,"
                + " reasoning_tokens, web_search_calls, at_ms, cost_usd_e10, price_version, deployment FROM usage_ledger"
                + " WHERE at_ms >= ? AND at_ms < ? AND id > ? ORDER BY id LIMIT " + PAGE)) {
            ps.setLong(1, from.toEpochMilli());
            ps.setLong(2, to.toEpochMilli());
            ps.setString(3, after);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                            new Usage(rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9),
                                    rs.getLong(10), rs.getLong(11)), Instant.ofEpochMilli(rs.getLong(12)), rs.getLong(13),
                            rs.getString(14), rs.getString(15)));
                }
            }
        }
        if (rows.isEmpty()) return null;
        Map<String, Long> keyDeltas = new TreeMap<>();
        Map<String, Long> spanDeltas = new TreeMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE usage_ledger SET cost_usd_e10 = ?, price_version = ?, price_unknown = 0 WHERE id = ?")) {
            for (Row r : rows) {
                totals[0]++;
                ModelPrice price = r.model() == null ? null : prices.priceOf(r.model(), r.deployment());
                if (price == null || price.unknown()) {
                    totals[2]++;
                    totals[3] += r.costE10();
                    totals[4] += r.costE10();
                    continue;
                }
                long cost = Money.toE10(price.cost(r.usage()));
                totals[3] += r.costE10();
                totals[4] += cost;
                if (cost == r.costE10() && version.equals(r.version())) continue;
                totals[1]++;
                ps.setLong(1, cost);
                ps.setString(2, version);
                ps.setString(3, r.id());
                ps.addBatch();
                long delta = cost - r.costE10();
                if (delta == 0) continue;
                keyDeltas.merge(r.keyId(), delta, Long::sum);
                List<String> holders = r.teamId() == null ? List.of(r.keyId()) : List.of(r.keyId(), Team.HOLDER_PREFIX + r.teamId());
                for (String holder : holders) {
                    for (String period : BudgetPeriod.all(r.at())) spanDeltas.merge(SpendTracker.slot(holder, period), delta, Long::sum);
                }
            }
            ps.executeBatch();
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE api_keys SET spent_usd_e10 = spent_usd_e10 + ? WHERE id = ?")) {
            for (Map.Entry<String, Long> d : keyDeltas.entrySet()) {
                ps.setLong(1, d.getValue());
                ps.setString(2, d.getKey());
                ps.addBatch();
            }
            ps.executeBatch();
        }
        Ledger.addSpend(c, spanDeltas);
        return rows.getLast().id();
    }
}
