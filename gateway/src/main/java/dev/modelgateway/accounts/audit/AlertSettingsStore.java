package dev.modelgateway.accounts.audit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.Sql;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The alert settings' row of {@code accounts_settings}. Blocking. */
public final class AlertSettingsStore {
    private static final String NAME = "alerts";

    private AlertSettingsStore() {
    }

    /** The stored settings, or {@link AlertSettings#DEFAULT} when none were set. */
    public static AlertSettings read(Sql db) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT value_json FROM accounts_settings WHERE name = ?")) {
                ps.setString(1, NAME);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return AlertSettings.DEFAULT;
                    JsonNode j = Json.parseOrNull(rs.getString(1));
                    List<Integer> levels = new ArrayList<>();
                    j.path("thresholds").forEach(n -> levels.add(n.intValue()));
                    return new AlertSettings(j.path("webhook_url").textValue(), levels.isEmpty() ? AlertSettings.DEFAULT.thresholds() : levels,
                            j.path("signing_secret").textValue(), false);
                }
            }
        });
    }

    /** Replaces the stored settings; run it in a transaction ({@link Sql#in}) to replace them atomically. */
    public static void write(Sql db, AlertSettings settings) throws SQLException {
        db.call(c -> {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM accounts_settings WHERE name = ?");
                 PreparedStatement ins = c.prepareStatement("INSERT INTO accounts_settings (name, value_json) VALUES (?, ?)")) {
                del.setString(1, NAME);
                del.executeUpdate();
                ins.setString(1, NAME);
                ins.setString(2, settings.stored().toString());
                return ins.executeUpdate();
            }
        });
    }
}
