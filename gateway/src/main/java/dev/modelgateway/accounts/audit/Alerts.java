package dev.modelgateway.accounts.audit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.ledger.LedgerEntry;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Sql;
import dev.modelgateway.store.TimeOrderedId;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code alerts} table (docs/accounts.md, "Alerts"): budget thresholds crossed and models used without a price,
 * each raised once (its unique key: kind, holder, span, threshold, so several instances raise it once between
 * them) and then delivered by {@link AlertSender}. Blocking.
 */
public final class Alerts {
    static final int MAX_ATTEMPTS = 10;

    /** One alert and where its delivery stands. */
    public record Alert(String id, String kind, String holder, String period, int threshold, String budgetUsd, Long spentE10,
                 Instant createdAt, String state, int attempts, String lastError, Instant deliveredAt) {

        /** The webhook's body. */
        ObjectNode payload() {
            ObjectNode j = Json.MAPPER.createObjectNode().put("id", id).put("created_at", createdAt.toString());
            if (kind.equals("price_unknown")) {
                return j.put("type", "price.unknown").put("model", holder).put("day", period.substring(1))
                        .put("message", "Model '" + holder + "' was used with price: unknown; its ledger rows are marked"
                                + " price_unknown and cost 0 until it is priced and the range re-priced.");
            }
            boolean team = holder.startsWith(Team.HOLDER_PREFIX);
            return j.put("type", "budget.threshold").put("holder_type", team ? "team" : "key")
                    .put(team ? "team_id" : "key_id", team ? holder.substring(Team.HOLDER_PREFIX.length()) : holder)
                    .put("period", period).put("threshold_percent", threshold).put("budget_usd", budgetUsd)
                    .put("spent_usd", spentE10 == null ? null : Money.text(spentE10));
        }

        public ObjectNode json() {
            return payload().put("object", "alert").put("state", state).put("attempts", attempts)
                    .put("last_error", lastError).put("delivered_at", deliveredAt == null ? null : deliveredAt.toString());
        }
    }

    private final Sql db;
    /** When an alert is raised, held and delivered. */
    private final InstantSource clock;

    /** For reading the alerts (the CLI). */
    public Alerts(Sql db) {
        this(db, InstantSource.system());
    }

    public Alerts(Sql db, InstantSource clock) {
        this.db = db;
        this.clock = clock;
    }

    /**
     * Raises the thresholds the holders of {@code batch} (just written) have reached in their budgets' current
     * spans; those raised before are left alone.
     */
    public void budgetsAfter(List<LedgerEntry> batch, List<Integer> thresholds) throws SQLException {
        Set<String> holders = new HashSet<>();
        batch.forEach(e -> holders.addAll(e.holders()));
        db.call(c -> {
            for (String holder : holders) {
                Object[] budget = budget(c, holder);
                if (budget == null) continue;
                BigDecimal usd = (BigDecimal) budget[0];
                BudgetPeriod period = (BudgetPeriod) budget[1];
                long budgetE10 = Money.toE10(usd);
                if (budgetE10 <= 0) continue;
                Set<String> spans = new HashSet<>();
                batch.stream().filter(e -> e.holders().contains(holder)).forEach(e -> spans.add(period.of(e.at())));
                for (String span : spans) {
                    long spent = spent(c, holder, span);
                    for (int t : thresholds) {
                        if (BigDecimal.valueOf(spent).multiply(BigDecimal.valueOf(100))
                                .compareTo(BigDecimal.valueOf(budgetE10).multiply(BigDecimal.valueOf(t))) >= 0) {
                            raise(c, "budget", holder, span, t, usd.toPlainString(), spent);
                        }
                    }
                }
            }
            return null;
        });
    }

    /** Raises the alert of a model used with {@code price: unknown}, once a day. */
    public void priceUnknown(String model, Instant at) throws SQLException {
        db.call(c -> {
            raise(c, "price_unknown", model, BudgetPeriod.DAY.of(at), 0, null, null);
            return null;
        });
    }

    private void raise(Connection c, String kind, String holder, String span, int threshold, String budgetUsd,
                       Long spent) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO alerts (id, kind, holder, period, threshold, budget_usd,"
                + " spent_usd_e10, created_at_ms, state, attempts, next_attempt_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?)"
                + " ON CONFLICT (kind, holder, period, threshold) DO NOTHING")) {
            long now = clock.millis();
            ps.setString(1, TimeOrderedId.next());
            ps.setString(2, kind);
            ps.setString(3, holder);
            ps.setString(4, span);
            ps.setInt(5, threshold);
            ps.setString(6, budgetUsd);
            if (spent == null) ps.setNull(7, Types.BIGINT);
            else ps.setLong(7, spent);
            ps.setLong(8, now);
            ps.setLong(9, now);
            ps.executeUpdate();
        }
    }

    /** {budget, period} of a key or team, or null when it has no budget. */
    private static Object[] budget(Connection c, String holder) throws SQLException {
        boolean team = holder.startsWith(Team.HOLDER_PREFIX);
        try (PreparedStatement ps = c.prepareStatement("SELECT budget_usd, budget_period FROM " + (team ? "teams" : "api_keys")
                + " WHERE id = ?")) {
            ps.setString(1, team ? holder.substring(Team.HOLDER_PREFIX.length()) : holder);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next() || rs.getString(1) == null) return null;
                return new Object[]{new BigDecimal(rs.getString(1)), BudgetPeriod.orLifetime(BudgetPeriod.parse(rs.getString(2)))};
            }
        }
    }

    private static long spent(Connection c, String holder, String span) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT spent_usd_e10 FROM budget_spend WHERE holder = ? AND period = ?")) {
            ps.setString(1, holder);
            ps.setString(2, span);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        }
    }

    /** The newest {@code limit} alerts, newest first. */
    public List<Alert> list(int limit) throws SQLException {
        return select("ORDER BY created_at_ms DESC, id DESC LIMIT " + limit, null);
    }

    /** Pending alerts whose next delivery attempt is due. */
    List<Alert> due(long nowMs, int limit) throws SQLException {
        return select("WHERE state = 'pending' AND next_attempt_ms <= ? ORDER BY next_attempt_ms LIMIT " + limit, nowMs);
    }

    /**
     * Takes the delivery attempt {@code attempt} of an alert for this instance, and puts its next attempt off by
     * {@code holdMs} in case this one never reports; false when another instance took it first.
     */
    boolean claim(Alert a, long holdMs) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE alerts SET attempts = attempts + 1, next_attempt_ms = ?"
                    + " WHERE id = ? AND attempts = ? AND state = 'pending'")) {
                ps.setLong(1, clock.millis() + holdMs);
                ps.setString(2, a.id());
                ps.setInt(3, a.attempts());
                return ps.executeUpdate() == 1;
            }
        });
    }

    void delivered(String id) throws SQLException {
        update("UPDATE alerts SET state = 'delivered', delivered_at_ms = ?, last_error = NULL WHERE id = ?",
                clock.millis(), id, null);
    }

    /** A failed attempt: retried at {@code nextMs}, or given up when it was the last. */
    void attemptFailed(Alert a, String error, long nextMs) throws SQLException {
        boolean last = a.attempts() + 1 >= MAX_ATTEMPTS;
        update("UPDATE alerts SET next_attempt_ms = ?, last_error = ?" + (last ? ", state = 'failed'" : "") + " WHERE id = ?",
                nextMs, a.id(), error.length() > 500 ? error.substring(0, 500) : error);
    }

    private void update(String sql, long time, String id, String error) throws SQLException {
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setLong(1, time);
                if (error != null) {
                    ps.setString(2, error);
                    ps.setString(3, id);
                } else {
                    ps.setString(2, id);
                }
                return ps.executeUpdate();
            }
        });
    }

    private List<Alert> select(String tail, Long arg) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT id, kind, holder, period, threshold, budget_usd, spent_usd_e10,"
                    + " created_at_ms, state, attempts, last_error, delivered_at_ms FROM alerts " + tail)) {
                if (arg != null) ps.setLong(1, arg);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Alert> alerts = new ArrayList<>();
                    while (rs.next()) {
                        long spent = rs.getLong(7);
                        Long spentE10 = rs.wasNull() ? null : spent;
                        long delivered = rs.getLong(12);
                        Instant deliveredAt = rs.wasNull() ? null : Instant.ofEpochMilli(delivered);
                        alerts.add(new Alert(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getInt(5),
                                rs.getString(6), spentE10, Instant.ofEpochMilli(rs.getLong(8)), rs.getString(9), rs.getInt(10),
                                rs.getString(11), deliveredAt));
                    }
                    return alerts;
                }
            }
        });
    }
}
