package dev.modelgateway.accounts.ledger;

import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.store.Database;
import io.vertx.core.json.JsonObject;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * The {@code price_tables} table: every price table a ledger row was priced with, by its version, so that what a
 * row was charged at stays readable after the prices change. Blocking.
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

    private static Object json(ModelPrice p) {
        if (p.unknown()) return "unknown";
        return new JsonObject().put("input", p.input().toPlainString()).put("output", p.output().toPlainString())
                .put("cache_read", p.cacheRead().toPlainString()).put("cache_write_5m", p.cacheWrite5m().toPlainString())
                .put("cache_write_1h", p.cacheWrite1h().toPlainString()).put("reasoning", p.reasoning().toPlainString())
                .put("web_search", p.webSearchCall().toPlainString());
    }
}
