package dev.modelgateway.accounts.keys;

import dev.modelgateway.store.Sql;
import io.vertx.core.json.JsonArray;

import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The {@code teams} table. Blocking: call it from a worker thread or the CLI. */
public final class TeamStore {
    private static final List<String> COLUMNS = List.of("id", "name", "allowed_models", "rpm", "tpm", "budget_usd",
            "budget_period", "created_at_ms");

    private final Sql db;

    public TeamStore(Sql db) {
        this.db = db;
    }

    /** The team columns of table alias {@code t}, each named {@code t_<column>}, for a join. */
    static String columns(String t) {
        return String.join(", ", COLUMNS.stream().map(c -> t + "." + c + " AS " + t + "_" + c).toList());
    }

    public Team create(Team settings) throws SQLException {
        Team team = new Team("team_" + KeyToken.newId().substring("key_".length()), settings.name(), settings.allowedModels(),
                settings.rpm(), settings.tpm(), settings.budgetUsd(), settings.budgetPeriod(),
                Instant.ofEpochMilli(System.currentTimeMillis()));
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO teams (" + String.join(", ", COLUMNS)
                    + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, team.id());
                bind(ps, 2, team);
                ps.setLong(8, team.createdAt().toEpochMilli());
                return ps.executeUpdate();
            }
        });
        return team;
    }

    public Optional<Team> find(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + columns("t") + " FROM teams t WHERE t.id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(read(rs, "t_")) : Optional.empty();
                }
            }
        });
    }

    public List<Team> list() throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT " + columns("t") + " FROM teams t ORDER BY t.created_at_ms, t.id");
                 ResultSet rs = ps.executeQuery()) {
                List<Team> teams = new ArrayList<>();
                while (rs.next()) teams.add(read(rs, "t_"));
                return teams;
            }
        });
    }

    /** Locks the team's row until the transaction ends, as {@link KeyStore#lock} does a key's; false if there is none. */
    public boolean lock(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE teams SET name = name WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    public boolean update(Team team) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE teams SET name = ?, allowed_models = ?, rpm = ?, tpm = ?,"
                    + " budget_usd = ?, budget_period = ? WHERE id = ?")) {
                bind(ps, 1, team);
                ps.setString(7, team.id());
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** Deletes a team without keys; false if there is no such team. */
    public boolean delete(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM teams WHERE id = ?")) {
                ps.setString(1, id);
                return ps.executeUpdate() > 0;
            }
        });
    }

    /** How many keys belong to the team. */
    public long keyCount(String id) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM api_keys WHERE team_id = ?")) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    /** Binds name .. budget_period from {@code first}. */
    private static void bind(PreparedStatement ps, int first, Team t) throws SQLException {
        ps.setString(first, t.name());
        ps.setString(first + 1, t.allowedModels().isEmpty() ? null : new JsonArray(t.allowedModels()).encode());
        KeyStore.setNullableLong(ps, first + 2, t.rpm());
        KeyStore.setNullableLong(ps, first + 3, t.tpm());
        ps.setString(first + 4, t.budgetUsd() == null ? null : t.budgetUsd().toPlainString());
        ps.setString(first + 5, t.budgetPeriod().wire);
    }

    /** The team in columns {@code <prefix><column>}; null when the id is null (a key outside any team). */
    static Team read(ResultSet rs, String prefix) throws SQLException {
        String id = rs.getString(prefix + "id");
        if (id == null) return null;
        String models = rs.getString(prefix + "allowed_models");
        String budget = rs.getString(prefix + "budget_usd");
        return new Team(id, rs.getString(prefix + "name"),
                models == null ? List.of() : new JsonArray(models).stream().map(String::valueOf).toList(),
                KeyStore.nullableLong(rs, prefix + "rpm"), KeyStore.nullableLong(rs, prefix + "tpm"),
                budget == null ? null : new BigDecimal(budget), BudgetPeriod.parse(rs.getString(prefix + "budget_period")),
                Instant.ofEpochMilli(rs.getLong(prefix + "created_at_ms")));
    }
}
