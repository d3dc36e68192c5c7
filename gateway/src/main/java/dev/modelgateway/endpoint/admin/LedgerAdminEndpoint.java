package dev.modelgateway.endpoint.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.audit.AlertSettings;
import dev.modelgateway.accounts.audit.Alerts;
import dev.modelgateway.accounts.audit.AuditLog;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.accounts.ledger.Repricing;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;

import static dev.modelgateway.endpoint.admin.AdminReplies.actor;
import static dev.modelgateway.endpoint.admin.AdminReplies.body;
import static dev.modelgateway.endpoint.admin.AdminReplies.param;
import static dev.modelgateway.endpoint.admin.AdminReplies.respond;
import static dev.modelgateway.endpoint.admin.AdminReplies.textParam;

/** {@code /admin/reprice}, {@code /admin/alerts} and {@code /admin/audit}: what the ledger's operators do and read. */
public final class LedgerAdminEndpoint {
    private final Administration accounts;

    public LedgerAdminEndpoint(Administration accounts) {
        this.accounts = accounts;
    }

    public void reprice(RoutingContext ctx) {
        ObjectNode body = body(ctx);
        Instant from = KeyRequests.instant("from", required(body, "from"));
        Instant to = KeyRequests.instant("to", required(body, "to"));
        if (!from.isBefore(to)) throw GatewayException.invalid("from", "'from' must be before 'to'.");
        respond(ctx, accounts.reprice(actor(ctx), from, to).map(Repricing.Result::json));
    }

    public void alerts(RoutingContext ctx) {
        int limit = limit(ctx);
        respond(ctx, accounts.alertSettings().compose(settings -> accounts.alerts(limit).map(alerts -> {
            ObjectNode list = AdminReplies.list(alerts.stream().map(Alerts.Alert::json).toList());
            list.set("settings", settings.json());
            return list;
        })));
    }

    public void alertSettings(RoutingContext ctx) {
        respond(ctx, accounts.updateAlertSettings(actor(ctx), body(ctx)).map(AlertSettings::reply));
    }

    public void audit(RoutingContext ctx) {
        int limit = limit(ctx);
        // the master key's uses on request (include=master_key.use), as the console's audit screen lists them
        String include = param(ctx, "include");
        if (include != null && !include.equals(AuditLog.MASTER_KEY_USE)) {
            throw GatewayException.invalid("include", "'include' takes only '" + AuditLog.MASTER_KEY_USE + "'.");
        }
        respond(ctx, accounts.auditLog(limit, param(ctx, "target_id"), include != null)
                .map(entries -> AdminReplies.list(entries.stream().map(LedgerAdminEndpoint::json).toList())));
    }

    /** {@code limit}: 1 to 1000, 100 when absent. */
    private static int limit(RoutingContext ctx) {
        Long limit = KeyRequests.limit("limit", textParam(ctx, "limit"));
        if (limit != null && limit > 1000) throw GatewayException.invalid("limit", "'limit' must be at most 1000.");
        return limit == null ? 100 : limit.intValue();
    }

    private static ObjectNode json(AuditLog.Entry e) {
        ObjectNode json = Json.MAPPER.createObjectNode().put("id", e.id()).put("object", "audit_entry").put("at", e.at().toString())
                .put("actor", e.actor().id()).put("actor_kind", e.actor().kind()).put("actor_name", e.actor().name())
                .put("actor_role", e.actor().role()).put("source", e.actor().source()).put("action", e.action()).put("target_type", e.targetType()).put("target_id", e.targetId());
        json.set("before", e.beforeJson() == null ? json.nullNode() : Json.parseOrNull(e.beforeJson()));
        json.set("after", e.afterJson() == null ? json.nullNode() : Json.parseOrNull(e.afterJson()));
        return json;
    }

    private static JsonNode required(ObjectNode body, String field) {
        JsonNode v = KeyRequests.value(body, field);
        if (v == null) throw GatewayException.invalid(field, "'" + field + "' is required.");
        return v;
    }
}
