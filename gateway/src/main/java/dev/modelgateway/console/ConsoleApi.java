package dev.modelgateway.console;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.access.Grant;
import dev.modelgateway.access.Permission;
import dev.modelgateway.access.Principal;
import dev.modelgateway.access.Reach;
import dev.modelgateway.accounts.ApiKey;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Caller;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import dev.modelgateway.store.SqlWork;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The console's read API under {@code /api/v1/console} (docs/console.md), its routes listed in
 * {@code server/GatewayRouter}. Behind the gateway's authentication like every {@code /api} route (a bearer key or a
 * person's console session): what a principal sees is {@link Visible}'s; the audit log needs {@code audit:read}.
 * Keys, rate limits and models come from the existing admin and models routes.
 */
public final class ConsoleApi {
    private static final Duration DEFAULT_REQUESTS_WINDOW = Duration.ofDays(1);
    /** The end of 9999, the latest time a parameter may name (a date's inclusive end is the next day's start). */
    private static final Instant LATEST = LocalDate.of(10_000, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant();
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleApi.class);
    private static final Pattern ACTION = Pattern.compile("[a-z_]{1,20}(\\.[a-z_]{1,20})?");
    private static final Pattern TARGET_TYPE = Pattern.compile("[a-z_]{1,20}");

    private final Vertx vertx;
    private final Console console;

    ConsoleApi(Vertx vertx, Console console) {
        this.vertx = vertx;
        this.console = console;
    }

    /**
     * {@code GET /me}: who the console acts for (a person, an admin key, a platform key, the master key), their roles,
     * every permission they hold with its reach, and for a cookie session the CSRF token its changes must carry; for a
     * platform key also its limits and what it has spent.
     */
    public void me(RoutingContext ctx) {
        Caller caller = Exchange.of(ctx).caller();
        Principal p = caller.principal();
        ApiKey key = caller.key();
        ObjectNode me = Json.MAPPER.createObjectNode().put("kind", p.kind().name().toLowerCase(Locale.ROOT)).put("id", p.id())
                .put("name", p.name()).put("admin", p.kind() == Principal.Kind.MASTER)
                .put("key_id", key == null ? null : key.id());
        ArrayNode grants = me.putArray("grants");
        for (Grant g : p.grants()) {
            grants.addObject().put("role", g.role() == null ? null : g.role().wire).put("scope", g.scope().wire())
                    .put("team", g.scope().teamId()).put("label", g.label());
        }
        ObjectNode permissions = me.putObject("permissions");
        for (Permission perm : Permission.values()) {
            Reach r = p.reach(perm);
            if (!r.any()) continue;
            ObjectNode reach = permissions.putObject(perm.wire).put("org", r.org()).put("own", r.owner() != null);
            r.teams().stream().sorted().forEach(reach.putArray("teams")::add);
        }
        me.put("csrf_token", (String) ctx.get(ConsoleSessions.CSRF_TOKEN));
        if (key == null || key.master()) {
            json(ctx, Future.succeededFuture(me));
            return;
        }
        me.put("rpm", key.rpm()).put("tpm", key.tpm()).put("max_concurrent", key.maxConcurrent());
        key.allowedModels().forEach(me.putArray("allowed_models")::add);
        me.put("budget_usd", key.budgetUsd() == null ? null : key.budgetUsd().toPlainString())
                .put("expires_at", key.expiresAt() == null ? null : key.expiresAt().toString());
        ArrayNode limits = me.putArray("model_limits");
        key.modelLimits().forEach(l -> limits.addObject().put("models", l.models()).put("rpm", l.rpm()).put("tpm", l.tpm()));
        json(ctx, blocking(c -> ConsoleQueries.spentE10(c, key.id())).map(spent -> me.put("spent_usd", usd(spent))));
    }

    /** {@code GET /usage}: the rollups as chart series. */
    public void usage(RoutingContext ctx) {
        UsageQuery q = usageQuery(ctx);
        json(ctx, blocking(c -> ConsoleQueries.usage(c, q)).map(rows -> {
            ObjectNode usage = Json.MAPPER.createObjectNode().put("object", "console_usage")
                    .put("grain", q.grain().name().toLowerCase(Locale.ROOT))
                    .put("dimension", q.dimension().name().toLowerCase(Locale.ROOT))
                    .put("from", Instant.ofEpochMilli(q.fromMs()).toString()).put("to", Instant.ofEpochMilli(q.toMs()).toString());
            ArrayNode bounds = usage.putArray("histogram_bounds_ms");
            for (long b : RollupColumns.BOUNDS_MS) bounds.add(b);
            ArrayNode data = usage.putArray("data");
            for (UsageRow r : rows) data.add(usageJson(r));
            return usage;
        }));
    }

    /** {@code GET /usage.csv}: the same series as a download. */
    public void usageCsv(RoutingContext ctx) {
        UsageQuery q = usageQuery(ctx);
        console.ready().compose(v -> blocking(c -> ConsoleQueries.usage(c, q))).onComplete(r -> {
            if (r.failed()) {
                fail(ctx, r.cause());
                return;
            }
            String name = "usage-" + q.grain().name().toLowerCase(Locale.ROOT) + "-" + q.dimension().name().toLowerCase(Locale.ROOT) + ".csv";
            ctx.response().putHeader("content-type", "text/csv; charset=utf-8")
                    .putHeader("content-disposition", "attachment; filename=\"" + name + "\"")
                    .end(UsageCsv.of(r.result()));
        });
    }

    /** {@code GET /requests}: the ledger's rows, newest first, a page at a time. */
    public void requests(RoutingContext ctx) {
        Visible visible = visible(ctx);
        int limit = intParam(ctx, "limit", 50);
        if (limit < 1 || limit > RequestFilter.MAX_LIMIT) {
            throw GatewayException.invalid("limit", "'limit' must be between 1 and " + RequestFilter.MAX_LIMIT + ".");
        }
        long since = instantParam(ctx, "since", false, Instant.now().minus(DEFAULT_REQUESTS_WINDOW)).toEpochMilli();
        Cursor before = cursor(ctx);
        String status = blankToNull(ctx.request().getParam("status"));
        if (status != null && !status.equals("error") && !status.equals("ok")) {
            throw GatewayException.invalid("status", "'status' takes 'error' or 'ok', not '" + status + "'.");
        }
        String user = blankToNull(ctx.request().getParam("user"));
        if (user != null && user.length() > 40) throw GatewayException.invalid("user", "'user' is a user's id (usr_...), at most 40 characters.");
        RequestFilter f = new RequestFilter(keyParam(ctx, visible), blankToNull(ctx.request().getParam("model")),
                status == null ? null : status.equals("error"), since,
                before == null ? null : before.atMs(), before == null ? null : before.id(), limit, visible, user);
        json(ctx, blocking(c -> ConsoleQueries.requests(c, f)).map(rows -> {
            ObjectNode list = Json.MAPPER.createObjectNode().put("object", "list");
            ArrayNode data = list.putArray("data");
            rows.forEach(r -> data.add(requestJson(r)));
            LedgerRow last = rows.size() == limit ? rows.getLast() : null;
            return list.put("next", last == null ? null : last.atMs() + "_" + last.id());
        }));
    }

    /** {@code GET /requests/:id}: one row of the ledger, if the principal sees it ({@link Visible}). */
    public void request(RoutingContext ctx) {
        Visible visible = visible(ctx);
        String id = ctx.pathParam("id");
        json(ctx, blocking(c -> ConsoleQueries.request(c, id, visible)).compose(found -> found
                .map(r -> Future.succeededFuture(requestJson(r)))
                .orElseGet(() -> Future.failedFuture(GatewayException.of(ErrorKind.NOT_FOUND, "No request '" + id + "' in the ledger.")
                        .withParam("id").withCode("request_not_found")))));
    }

    /** {@code GET /audit}: the accounts' audit log, an admin route (it names every key and team). */
    public void audit(RoutingContext ctx) {
        int limit = intParam(ctx, "limit", 50);
        if (limit < 1 || limit > AuditFilter.MAX_LIMIT) {
            throw GatewayException.invalid("limit", "'limit' must be between 1 and " + AuditFilter.MAX_LIMIT + ".");
        }
        String action = word(ctx, "action", ACTION, "an action such as 'key.create'");
        String targetType = word(ctx, "target_type", TARGET_TYPE, "key, team, ledger or alerts");
        String target = blankToNull(ctx.request().getParam("target"));
        if (target != null && target.length() > 100) throw GatewayException.invalid("target", "'target' is at most 100 characters.");
        String actor = blankToNull(ctx.request().getParam("actor"));
        if (actor != null && actor.length() > 100) throw GatewayException.invalid("actor", "'actor' is at most 100 characters.");
        Cursor before = cursor(ctx);
        AuditFilter f = new AuditFilter(target, targetType, action, actor, before == null ? null : before.atMs(), before == null ? null : before.id(), limit);
        json(ctx, blocking(c -> ConsoleQueries.audit(c, f)).map(rows -> {
            ObjectNode list = Json.MAPPER.createObjectNode().put("object", "list");
            ArrayNode data = list.putArray("data");
            for (AuditRow r : rows) data.add(auditJson(r));
            AuditRow last = rows.size() == limit ? rows.getLast() : null;
            return list.put("next", last == null ? null : last.atMs() + "_" + last.id());
        }));
    }

    /** A parameter that must match {@code shape}; null when absent. */
    private static String word(RoutingContext ctx, String name, Pattern shape, String expected) {
        String value = blankToNull(ctx.request().getParam(name));
        if (value != null && !shape.matcher(value).matches()) {
            throw GatewayException.invalid(name, "'" + name + "' takes " + expected + ", not '" + value + "'.");
        }
        return value;
    }

    /** A page's {@code before} cursor: the previous page's {@code next}, {@code <at_ms>_<id>}; null when absent. */
    private record Cursor(long atMs, String id) {
    }

    private static Cursor cursor(RoutingContext ctx) {
        String before = blankToNull(ctx.request().getParam("before"));
        if (before == null) return null;
        int sep = before.indexOf('_');
        try {
            return new Cursor(Long.parseLong(before.substring(0, sep)), before.substring(sep + 1));
        } catch (RuntimeException e) {
            throw GatewayException.invalid("before", "'before' must be the 'next' cursor of the previous page.");
        }
    }

    private static UsageQuery usageQuery(RoutingContext ctx) {
        Visible visible = visible(ctx);
        UsageQuery.Grain grain = choice(ctx, "grain", UsageQuery.Grain.class, UsageQuery.Grain.DAY);
        UsageQuery.Dimension dimension = choice(ctx, "dimension", UsageQuery.Dimension.class, UsageQuery.Dimension.NONE);
        Instant to = instantParam(ctx, "to", true, Instant.now());
        Instant from = instantParam(ctx, "from", false, to.minus(grain == UsageQuery.Grain.DAY ? Duration.ofDays(30) : Duration.ofDays(1)));
        long fromMs = Math.floorDiv(from.toEpochMilli(), grain.ms) * grain.ms;
        long toMs = to.toEpochMilli();
        if (fromMs >= toMs) throw GatewayException.invalid("from", "'from' must be before 'to'.");
        if ((toMs - fromMs) / grain.ms > grain.maxBuckets) {
            throw GatewayException.invalid("from", "At most " + grain.maxBuckets + " " + grain.name().toLowerCase(Locale.ROOT)
                    + "s per chart: choose a shorter range or grain=day.");
        }
        if (visible.oneKey() && dimension == UsageQuery.Dimension.KEY) dimension = UsageQuery.Dimension.NONE;
        return new UsageQuery(grain, fromMs, toMs, dimension, keyParam(ctx, visible), visible);
    }

    static ObjectNode usageJson(UsageRow r) {
        ObjectNode json = Json.MAPPER.createObjectNode().put("bucket", Instant.ofEpochMilli(r.bucketMs()).toString()).put("bucket_ms", r.bucketMs())
                .put("group", r.group()).put("requests", r.requests()).put("errors", r.errors())
                .put("input_tokens", r.inputTokens()).put("cache_read_tokens", r.cacheReadTokens())
                .put("cache_write_tokens", r.cacheWriteTokens()).put("output_tokens", r.outputTokens())
                .put("reasoning_tokens", r.reasoningTokens()).put("cost_usd", usd(r.costE10()))
                .put("latency_sum_ms", r.latencySumMs()).put("ttft_sum_ms", r.ttftSumMs()).put("ttft_count", r.ttftCount());
        json.set("latency_histogram", counts(r.latency()));
        json.set("ttft_histogram", counts(r.ttft()));
        return json;
    }

    static ObjectNode auditJson(AuditRow r) {
        ObjectNode json = Json.MAPPER.createObjectNode().put("id", r.id()).put("at", Instant.ofEpochMilli(r.atMs()).toString())
                .put("actor", r.actor()).put("action", r.action()).put("target_type", r.targetType()).put("target_id", r.targetId())
                .put("actor_kind", r.actorKind()).put("actor_name", r.actorName()).put("actor_role", r.actorRole()).put("source", r.source());
        json.set("before", r.beforeJson() == null ? json.nullNode() : Json.parseOrNull(r.beforeJson()));
        json.set("after", r.afterJson() == null ? json.nullNode() : Json.parseOrNull(r.afterJson()));
        return json;
    }

    static ObjectNode requestJson(LedgerRow r) {
        return Json.MAPPER.createObjectNode().put("id", r.id()).put("trace_id", r.traceId()).put("key_id", r.keyId())
                .put("model", r.publicModel()).put("answered_model", r.answeredModel()).put("vendor", r.vendor())
                .put("status", r.status()).put("attempts", r.attempts()).put("latency_ms", r.latencyMs()).put("ttft_ms", r.ttftMs())
                .put("at", Instant.ofEpochMilli(r.atMs()).toString()).put("at_ms", r.atMs())
                .put("input_tokens", r.inputTokens()).put("cache_read_tokens", r.cacheReadTokens())
                .put("cache_write_5m_tokens", r.cacheWrite5mTokens()).put("cache_write_1h_tokens", r.cacheWrite1hTokens())
                .put("output_tokens", r.outputTokens()).put("reasoning_tokens", r.reasoningTokens())
                .put("cost_usd", usd(r.costE10())).put("user_id", r.userId());
    }

    /** Exact decimal text, as the accounts API writes money. */
    static String usd(long e10) {
        return BigDecimal.valueOf(e10, 10).stripTrailingZeros().toPlainString();
    }

    private static ArrayNode counts(long[] counts) {
        ArrayNode a = Json.MAPPER.createArrayNode();
        for (long n : counts) a.add(n);
        return a;
    }

    /** Whose rows the principal sees; a console session has no key (never dereference it blindly). */
    private static Visible visible(RoutingContext ctx) {
        Caller caller = Exchange.of(ctx).caller();
        return Visible.of(caller.principal(), caller.key());
    }

    /** The {@code key} filter, within what the principal sees; a platform key sees only itself, whatever it asks. */
    private static String keyParam(RoutingContext ctx, Visible visible) {
        if (visible.oneKey()) return null;
        String key = blankToNull(ctx.request().getParam("key"));
        if (key != null && key.length() > 100) throw GatewayException.invalid("key", "'key' is at most 100 characters.");
        return key;
    }

    private static <E extends Enum<E>> E choice(RoutingContext ctx, String name, Class<E> type, E fallback) {
        String value = blankToNull(ctx.request().getParam(name));
        if (value == null) return fallback;
        for (E e : type.getEnumConstants()) if (e.name().equalsIgnoreCase(value)) return e;
        throw GatewayException.invalid(name, "'" + name + "' takes " + String.join(", ",
                List.of(type.getEnumConstants()).stream().map(e -> e.name().toLowerCase(Locale.ROOT)).toList()) + ", not '" + value + "'.");
    }

    /**
     * An ISO instant, or a date (UTC): its start, or for an inclusive end ({@code endOfDay}) the next day's start; from
     * 1970 to the end of 9999, as the admin API's times ({@code accounts/KeyRequests.instant}): a far-future instant
     * ({@code +999999999-12-31T23:59:59Z}) overflowed its epoch milliseconds, once a 500 with a stack trace.
     */
    private static Instant instantParam(RoutingContext ctx, String name, boolean endOfDay, Instant fallback) {
        String value = blankToNull(ctx.request().getParam(name));
        if (value == null) return fallback;
        Instant t;
        try {
            if (value.length() == 10) {
                LocalDate day = LocalDate.parse(value);
                t = (endOfDay ? day.plusDays(1) : day).atStartOfDay(ZoneOffset.UTC).toInstant();
            } else {
                t = Instant.parse(value);
            }
        } catch (DateTimeParseException e) {
            throw GatewayException.invalid(name, "'" + name + "' must be a date (2026-11-24) or an instant (2026-11-24T06:00:00Z), not '"
                    + value + "'.");
        }
        if (t.isBefore(Instant.EPOCH) || t.isAfter(LATEST)) {
            throw GatewayException.invalid(name, "'" + name + "' must be from 1970-01-01 to 9999-12-31, not '" + value + "'.");
        }
        return t;
    }

    private static int intParam(RoutingContext ctx, String name, int fallback) {
        String value = blankToNull(ctx.request().getParam(name));
        if (value == null) return fallback;
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw GatewayException.invalid(name, "'" + name + "' must be an integer, not '" + value + "'.");
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private <T> Future<T> blocking(SqlWork<T> work) {
        return console.ready().compose(v -> vertx.executeBlocking(() -> {
            try {
                return console.database().call(work);
            } catch (SQLException e) {
                LOG.error("console database failure", e);
                throw GatewayException.of(ErrorKind.UNAVAILABLE, "The accounts database is unavailable.");
            }
        }, false));
    }

    private static void json(RoutingContext ctx, Future<ObjectNode> answer) {
        answer.onComplete(r -> {
            if (r.failed()) fail(ctx, r.cause());
            else ctx.response().putHeader("content-type", "application/json").putHeader("cache-control", "no-store").end(Json.toBuffer(r.result()));
        });
    }

    private static void fail(RoutingContext ctx, Throwable e) {
        if (e instanceof GatewayException g) Exchange.fail(ctx, g);
        else {
            LOG.error("console request failed", e);
            Exchange.fail(ctx, GatewayException.of(ErrorKind.UNAVAILABLE, "The console's data is unavailable."));
        }
    }
}
