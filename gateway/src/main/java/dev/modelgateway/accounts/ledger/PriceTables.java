package dev.modelgateway.accounts.ledger;

import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.store.Database;
import io.vertx.core.json.JsonObject;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The {@code price_tables} table: every price table a ledger row was priced with, by its version, so that what a
 * row was charged at stays readable after the prices change; and which of them the gateway prices with now (the
 * {@code price_table_in_force} row of {@code accounts_settings}), for {@code ./gw keys reprice} to match. Blocking.
 */
public final class PriceTables {
    private PriceTables() {}

    /** Stores the current table under its version unless it is stored already (another instance may race: fine). */
    public static void register(Database db, PriceBook prices) throws SQLException {
        JsonObject table = new JsonObject();
        prices.table().forEach((model, p) -> table.put(model, p == null ? null : json(p)));
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO price_tables (version, prices_json, first_used_ms)"
                    + " VALUES (?, ?, ?) ON CONFLICT (version) DO NOTHING")) {
                ps.setString(1, prices.version());
                ps.setString(2, table.encode());
                ps.setLong(3, System.currentTimeMillis());
                return ps.executeUpdate();
            }
        });
    }

    /** What a gateway last said it prices with: a table's version and when it said so. */
    public record InForce(String version, Instant since) {}

    private static final String IN_FORCE = "price_table_in_force";

    /** Stores the gateway's table ({@link #register}) and names it the one the gateway prices with from now on. */
    public static void registerInForce(Database db, PriceBook prices) throws SQLException {
        register(db, prices);
        String value = new JsonObject().put("version", prices.version()).put("since_ms", System.currentTimeMillis()).encode();
        db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO accounts_settings (name, value_json) VALUES (?, ?)"
                    + " ON CONFLICT (name) DO UPDATE SET value_json = excluded.value_json")) {
                ps.setString(1, IN_FORCE);
                ps.setString(2, value);
                return ps.executeUpdate();
            }
        });
    }

    /** The table a gateway on this database last priced with; empty when none has run since this was recorded. */
    public static Optional<InForce> inForce(Database db) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT value_json FROM accounts_settings WHERE name = ?")) {
                ps.setString(1, IN_FORCE);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return Optional.empty();
                    JsonObject j = new JsonObject(rs.getString(1));
                    return Optional.of(new InForce(j.getString("version"), Instant.ofEpochMilli(j.getLong("since_ms"))));
                }
            }
        });
    }

    private static Object json(ModelPrice p) {
        if (p.unknown()) return "unknown";
        return new JsonObject().put("input", p.input().toPlainString()).put("output", p.output().toPlainString())
                .put("cache_read", p.cacheRead().toPlainString()).put("cache_write_5m", p.cacheWrite5m().toPlainString())
                .put("cache_write_1h", p.cacheWrite1h().toPlainString()).put("reasoning", p.reasoning().toPlainString())
                .put("web_search", p.webSearchCall().toPlainString());
    }
}
