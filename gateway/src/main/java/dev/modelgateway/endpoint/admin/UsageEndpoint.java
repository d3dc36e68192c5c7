package dev.modelgateway.endpoint.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.access.Reach;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.ledger.UsageGrouping;
import dev.modelgateway.accounts.ledger.UsageQuery;
import dev.modelgateway.accounts.ledger.UsageTotals;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.http.Exchange;
import io.vertx.ext.web.RoutingContext;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.modelgateway.endpoint.admin.AdminReplies.param;
import static dev.modelgateway.endpoint.admin.AdminReplies.textParam;

/** {@code GET /admin/usage} (every key's) and {@code GET /usage} (the caller's own): the ledger's totals, grouped. */
public final class UsageEndpoint {
    private static final Duration DEFAULT_USAGE_RANGE = Duration.ofDays(30);

    private final Administration accounts;

    public UsageEndpoint(Administration accounts) {
        this.accounts = accounts;
    }

    /** Every key's usage, or, below the organisation, that of the keys within reach (its teams', its own). */
    public void all(RoutingContext ctx) {
        Reach reach = AdminAccess.reach(ctx);
        report(ctx, null, reach.org() ? null : new UsageQuery.Within(reach.teams(), reach.owner()));
    }

    /** {@code user_id=}: one user's usage (docs/accounts.md, "Usage by user"); the admin report only. */
    private static String userFilter(RoutingContext ctx, String keyId) {
        String user = param(ctx, "user_id");
        if (user == null || keyId != null) return null;
        if (user.isBlank() || user.length() > 40) throw GatewayException.invalid("user_id", "'user_id' must be a user's id (usr_...).");
        return user.strip();
    }

    public void own(RoutingContext ctx) {
        report(ctx, Exchange.of(ctx).caller().keyId(), null);
    }

    private void report(RoutingContext ctx, String keyId, UsageQuery.Within within) {
        Instant to = param(ctx, "to") == null ? Instant.now() : KeyRequests.instant("to", textParam(ctx, "to"));
        Instant from = param(ctx, "from") == null ? to.minus(DEFAULT_USAGE_RANGE) : KeyRequests.instant("from", textParam(ctx, "from"));
        if (!from.isBefore(to)) throw GatewayException.invalid("from", "'from' must be before 'to'.");
        List<UsageGrouping> groupBy = new ArrayList<>();
        String groups = param(ctx, "group_by");
        if (groups != null) {
            for (String g : groups.split(",")) {
                UsageGrouping grouping = UsageGrouping.parse(g);
                if (grouping == null) {
                    throw GatewayException.invalid("group_by", "'group_by' takes key, model, answered_model, deployment, user, day or hour"
                            + " (comma-separated to combine), not '" + g.strip() + "'.");
                }
                if (!groupBy.contains(grouping)) groupBy.add(grouping);
            }
        }
        AdminReplies.respond(ctx, accounts.usage(new UsageQuery(from, to, keyId, userFilter(ctx, keyId), groupBy, within)).map(rows -> {
            ObjectNode report = Json.MAPPER.createObjectNode().put("object", "usage_report").put("from", from.toString())
                    .put("to", to.toString());
            report.set("group_by", AdminReplies.strings(groupBy.stream().map(g -> g.field).toList()));
            ArrayNode data = report.putArray("data");
            UsageTotals total = UsageTotals.ZERO;
            for (UsageQuery.Group row : rows) {
                ObjectNode item = data.addObject();
                for (int i = 0; i < groupBy.size(); i++) item.put(groupBy.get(i).field, row.labels().get(i));
                totals(item, row.totals());
                total = total.plus(row.totals());
            }
            totals(report.putObject("total"), total);
            return report;
        }));
    }

    private static void totals(ObjectNode into, UsageTotals t) {
        into.put("requests", t.requests()).put("failed_requests", t.failedRequests())
                .put("input_tokens", t.inputTokens()).put("cache_read_tokens", t.cacheReadTokens())
                .put("cache_write_5m_tokens", t.cacheWrite5mTokens()).put("cache_write_1h_tokens", t.cacheWrite1hTokens())
                .put("output_tokens", t.outputTokens()).put("reasoning_tokens", t.reasoningTokens())
                .put("total_tokens", t.inputTokens() + t.cacheReadTokens() + t.cacheWrite5mTokens()
                        + t.cacheWrite1hTokens() + t.outputTokens())
                .put("cost_usd", Money.text(t.costE10()));
    }
}
