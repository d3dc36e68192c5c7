package dev.modelgateway.accounts.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * Where alerts go and when budgets raise them (docs/accounts.md, "Alerts"): a webhook URL (none: alerts are kept
 * and listed, and sent once one is set) and the soft thresholds in percent of a budget, 50/80/100 by default.
 * Stored in {@code accounts_settings} ({@link AlertSettingsStore}), so every instance uses the same.
 */
public record AlertSettings(String webhookUrl, List<Integer> thresholds) {

    static final AlertSettings DEFAULT = new AlertSettings(null, List.of(50, 80, 100));

    public AlertSettings {
        thresholds = List.copyOf(thresholds);
    }

    public ObjectNode json() {
        ObjectNode json = Json.MAPPER.createObjectNode().put("webhook_url", webhookUrl);
        thresholds.forEach(json.putArray("thresholds")::add);
        return json;
    }

    /** The current settings with the body's fields applied; 400 naming the field for anything invalid. */
    public AlertSettings patch(ObjectNode body) {
        body.fieldNames().forEachRemaining(field -> {
            if (!field.equals("webhook_url") && !field.equals("thresholds")) {
                throw GatewayException.invalid(field, "Unknown field '" + field + "'; alerts take webhook_url and thresholds.");
            }
        });
        String url = body.has("webhook_url") ? url(KeyRequests.value(body, "webhook_url")) : webhookUrl;
        List<Integer> levels = body.has("thresholds") ? thresholds(body.get("thresholds")) : thresholds;
        return new AlertSettings(url, levels);
    }

    private static String url(JsonNode v) {
        if (v == null) return null;
        try {
            URI uri = v.isTextual() ? URI.create(v.textValue().strip()) : null;
            if (uri != null && uri.getHost() != null && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                return uri.toString();
            }
        } catch (IllegalArgumentException e) {
            // the 400 below
        }
        throw GatewayException.invalid("webhook_url", "'webhook_url' must be an http or https URL, or null.");
    }

    private static List<Integer> thresholds(JsonNode v) {
        String problem = "'thresholds' must be an array of whole percentages from 1 to 1000, such as [50, 80, 100].";
        if (!v.isArray() || v.isEmpty() || v.size() > 10) throw GatewayException.invalid("thresholds", problem);
        List<Integer> levels = new ArrayList<>();
        for (JsonNode o : v) {
            int n = o.intValue();
            if (!o.isInt() || n < 1 || n > 1000) throw GatewayException.invalid("thresholds", problem);
            if (!levels.contains(n)) levels.add(n);
        }
        levels.sort(null);
        return levels;
    }
}
