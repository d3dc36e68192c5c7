package dev.modelgateway.accounts;

import dev.modelgateway.error.GatewayException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.net.URI;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where alerts go and when budgets raise them (docs/accounts.md, "Alerts"): a webhook URL (none: alerts are kept
 * and listed, and sent once one is set) and the soft thresholds in percent of a budget, 50/80/100 by default.
 * Stored in {@code accounts_settings}, so every instance uses the same.
 */
record AlertSettings(String webhookUrl, List<Integer> thresholds) {

    static final AlertSettings DEFAULT = new AlertSettings(null, List.of(50, 80, 100));
    private static final String NAME = "alerts";

    AlertSettings {
        thresholds = List.copyOf(thresholds);
    }

    JsonObject json() {
        return new JsonObject().put("webhook_url", webhookUrl).put("thresholds", new JsonArray(new ArrayList<>(thresholds)));
    }

    /** The current settings with the body's fields applied; 400 naming the field for anything invalid. */
    AlertSettings patch(JsonObject body) {
        for (String field : body.fieldNames()) {
            if (!field.equals("webhook_url") && !field.equals("thresholds")) {
                throw GatewayException.invalid(field, "Unknown field '" + field + "'; alerts take webhook_url and thresholds.");
            }
        }
        String url = body.containsKey("webhook_url") ? url(body.getValue("webhook_url")) : webhookUrl;
        List<Integer> levels = body.containsKey("thresholds") ? thresholds(body.getValue("thresholds")) : thresholds;
        return new AlertSettings(url, levels);
    }

    private static String url(Object v) {
        if (v == null) return null;
        try {
            URI uri = v instanceof String s ? URI.create(s.strip()) : null;
            if (uri != null && uri.getHost() != null && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                return uri.toString();
            }
        } catch (IllegalArgumentException e) {
            // the 400 below
        }
        throw GatewayException.invalid("webhook_url", "'webhook_url' must be an http or https URL, or null.");
    }

    private static List<Integer> thresholds(Object v) {
        String problem = "'thresholds' must be an array of whole percentages from 1 to 1000, such as [50, 80, 100].";
        if (!(v instanceof JsonArray a) || a.isEmpty() || a.size() > 10) throw GatewayException.invalid("thresholds", problem);
        List<Integer> levels = new ArrayList<>();
        for (Object o : a) {
            if (!(o instanceof Integer n) || n < 1 || n > 1000) throw GatewayException.invalid("thresholds", problem);
            if (!levels.contains(n)) levels.add(n);
        }
        levels.sort(null);
        return levels;
    }

    static AlertSettings read(Sql db) throws SQLException {
        return db.call(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT value_json FROM accounts_settings WHERE name = ?")) {
                ps.setString(1, NAME);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) return DEFAULT;
                    JsonObject j = new JsonObject(rs.getString(1));
                    List<Integer> levels = new ArrayList<>();
                    j.getJsonArray("thresholds", new JsonArray()).forEach(n -> levels.add(((Number) n).intValue()));
                    return new AlertSettings(j.getString("webhook_url"), levels.isEmpty() ? DEFAULT.thresholds : levels);
                }
            }
        });
    }

    /** Replaces the stored settings; run it in a transaction ({@link Sql#in}) to replace them atomically. */
    void write(Sql db) throws SQLException {
        db.call(c -> {
            try (PreparedStatement del = c.prepareStatement("DELETE FROM accounts_settings WHERE name = ?");
                 PreparedStatement ins = c.prepareStatement("INSERT INTO accounts_settings (name, value_json) VALUES (?, ?)")) {
                del.setString(1, NAME);
                del.executeUpdate();
                ins.setString(1, NAME);
                ins.setString(2, json().encode());
                return ins.executeUpdate();
            }
        });
    }
}
