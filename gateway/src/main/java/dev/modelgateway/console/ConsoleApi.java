package dev.modelgateway.console;

import dev.modelgateway.accounts.ApiKey;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.store.SqlWork;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
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
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The console's read API under {@code /api/v1/console} (docs/console.md). Behind the gateway's Bearer auth like
 * every {@code /api} route: the master key sees everything, any other key its own usage and requests only.
 * Keys, rate limits and models come from the existing admin and models routes.
 */
final class ConsoleApi {
    private static final String BASE = "/api/v1/console";
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

    void mount(Router router) {
        router.get(BASE + "/me").handler(ctx -> json(ctx, me(ctx)));
        router.get(BASE + "/usage").handler(ctx -> json(ctx, usage(ctx)));
        router.get(BASE + "/usage.csv").handler(this::usageCsv);
        router.get(BASE + "/requests").handler(ctx -> json(ctx, requests(ctx)));
        router.get(BASE + "/requests/:id").handler(ctx -> json(ctx, request(ctx)));
        router.get(BASE + "/audit").handler(ctx -> json(ctx, audit(ctx)));
    }

    private Future<JsonObject> me(RoutingContext ctx) {
        ApiKey key = caller(ctx);
        JsonObject me = new JsonObject().put("admin", key.master()).put("key_id", key.id()).put("name", key.name());
        if (key.master()) return Future.succeededFuture(me);
        me.put("rpm", key.rpm()).put("tpm", key.tpm()).put("max_concurrent", key.maxConcurrent())
                .put("allowed_models", new JsonArray(key.allowedModels()))
                .put("budget_usd", key.budgetUsd() == null ? null : key.budgetUsd().toPlainString())
                .put("expires_at", key.expiresAt() == null ? null : key.expiresAt().toString());
        JsonArray limits = new JsonArray();
        key.modelLimits().forEach(l -> limits.add(new JsonObject().put("models", l.models()).put("rpm", l.rpm()).put("tpm", l.tpm())));
        me.put("model_limits", limits);
        return blocking(c -> ConsoleQueries.spentE10(c, key.id())).map(spent -> me.put("spent_usd", usd(spent)));
    }

    private Future<JsonObject> usage(RoutingContext ctx) {
        UsageQuery q = usageQuery(ctx);
        return blocking(c -> ConsoleQueries.usage(c, q)).map(rows -> {
            JsonArray data = new JsonArray();
            for (UsageRow r : rows) data.add(usageJson(r));
            JsonArray bounds = new JsonArray();
            for (long b : RollupColumns.BOUNDS_MS) bounds.add(b);
            return new JsonObject().put("object", "console_usage").put("grain", q.grain().name().toLowerCase(Locale.ROOT))
                    .put("dimension", q.dimension().name().toLowerCase(Locale.ROOT))
                    .put("from", Instant.ofEpochMilli(q.fromMs()).toString()).put("to", Instant.ofEpochMilli(q.toMs()).toString())
                    .put("histogram_bounds_ms", bounds).put("data", data);
        });
    }

    private void usageCsv(RoutingContext ctx) {
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

    private Future<JsonObject> requests(RoutingContext ctx) {
        ApiKey key = caller(ctx);
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
        String keyId = key.master() ? blankToNull(ctx.request().getParam("key")) : key.id();
        RequestFilter f = new RequestFilter(keyId, blankToNull(ctx.request().getParam("model")),
                status == null ? null : status.equals("error"), since,
                before == null ? null : before.atMs(), before == null ? null : before.id(), limit);
        return blocking(c -> ConsoleQueries.requests(c, f)).map(rows -> {
            JsonArray data = new JsonArray();
            rows.forEach(r -> data.add(requestJson(r)));
            LedgerRow last = rows.size() == limit ? rows.getLast() : null;
            return new JsonObject().put("object", "list").put("data", data)
                    .put("next", last == null ? null : last.atMs() + "_" + last.id());
        });
    }

    private Future<JsonObject> request(RoutingContext ctx) {
        ApiKey key = caller(ctx);
        String id = ctx.pathParam("id");
        return blocking(c -> ConsoleQueries.request(c, id)).compose(found -> found
                .filter(r -> key.master() || r.keyId().equals(key.id()))
                .map(r -> Future.succeededFuture(requestJson(r)))
                .orElseGet(() -> Future.failedFuture(GatewayException.of(ErrorKind.NOT_FOUND, "No request '" + id + "' in the ledger.")
                        .withParam("id").withCode("request_not_found"))));
    }

    /** The accounts' audit log, for the master key only: it names every key and team. */
    private Future<JsonObject> audit(RoutingContext ctx) {
        if (!caller(ctx).master()) {
            throw GatewayException.of(ErrorKind.PERMISSION, "The audit log needs the master key.").withCode("master_key_required");
        }
        int limit = intParam(ctx, "limit", 50);
        if (limit < 1 || limit > AuditFilter.MAX_LIMIT) {
            throw GatewayException.invalid("limit", "'limit' must be between 1 and " + AuditFilter.MAX_LIMIT + ".");
        }
        String action = word(ctx, "action", ACTION, "an action such as 'key.create'");
        String targetType = word(ctx, "target_type", TARGET_TYPE, "key, team, ledger or alerts");
        String target = blankToNull(ctx.request().getParam("target"));
        if (target != null && target.length() > 100) throw GatewayException.invalid("target", "'target' is at most 100 characters.");
        Cursor before = cursor(ctx);
        AuditFilter f = new AuditFilter(target, targetType, action, before == null ? null : before.atMs(), before == null ? null : before.id(), limit);
        return blocking(c -> ConsoleQueries.audit(c, f)).map(rows -> {
            JsonArray data = new JsonArray();
            for (AuditRow r : rows) data.add(auditJson(r));
            AuditRow last = rows.size() == limit ? rows.getLast() : null;
            return new JsonObject().put("object", "list").put("data", data).put("next", last == null ? null : last.atMs() + "_" + last.id());
        });
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
        ApiKey key = caller(ctx);
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
        if (!key.master() && dimension == UsageQuery.Dimension.KEY) dimension = UsageQuery.Dimension.NONE;
        return new UsageQuery(grain, fromMs, toMs, dimension, key.master() ? blankToNull(ctx.request().getParam("key")) : key.id());
    }

    static JsonObject usageJson(UsageRow r) {
        return new JsonObject().put("bucket", Instant.ofEpochMilli(r.bucketMs()).toString()).put("bucket_ms", r.bucketMs())
                .put("group", r.group()).put("requests", r.requests()).put("errors", r.errors())
                .put("input_tokens", r.inputTokens()).put("cache_read_tokens", r.cacheReadTokens())
                .put("cache_write_tokens", r.cacheWriteTokens()).put("output_tokens", r.outputTokens())
                .put("reasoning_tokens", r.reasoningTokens()).put("cost_usd", usd(r.costE10()))
                .put("latency_sum_ms", r.latencySumMs()).put("ttft_sum_ms", r.ttftSumMs()).put("ttft_count", r.ttftCount())
                .put("latency_histogram", counts(r.latency())).put("ttft_histogram", counts(r.ttft()));
    }

    static JsonObject auditJson(AuditRow r) {
        return new JsonObject().put("id", r.id()).put("at", Instant.ofEpochMilli(r.atMs()).toString()).put("actor", r.actor())
                .put("action", r.action()).put("target_type", r.targetType()).put("target_id", r.targetId())
                .put("before", r.beforeJson() == null ? null : new JsonObject(r.beforeJson()))
                .put("after", r.afterJson() == null ? null : new JsonObject(r.afterJson()));
    }

    static JsonObject requestJson(LedgerRow r) {
        return new JsonObject().put("id", r.id()).put("trace_id", r.traceId()).put("key_id", r.keyId())
                .put("model", r.publicModel()).put("answered_model", r.answeredModel()).put("vendor", r.vendor())
                .put("status", r.status()).put("attempts", r.attempts()).put("latency_ms", r.latencyMs()).put("ttft_ms", r.ttftMs())
                .put("at", Instant.ofEpochMilli(r.atMs()).toString()).put("at_ms", r.atMs())
                .put("input_tokens", r.inputTokens()).put("cache_read_tokens", r.cacheReadTokens())
                .put("cache_write_5m_tokens", r.cacheWrite5mTokens()).put("cache_write_1h_tokens", r.cacheWrite1hTokens())
                .put("output_tokens", r.outputTokens()).put("reasoning_tokens", r.reasoningTokens())
                .put("cost_usd", usd(r.costE10()));
    }

    /** Exact decimal text, as the accounts API writes money. */
    static String usd(long e10) {
        return BigDecimal.valueOf(e10, 10).stripTrailingZeros().toPlainString();
    }

    private static JsonArray counts(long[] counts) {
        JsonArray a = new JsonArray();
        for (long n : counts) a.add(n);
        return a;
    }

    private static ApiKey caller(RoutingContext ctx) {
        return Exchange.of(ctx).caller().key();
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

    private static void json(RoutingContext ctx, Future<JsonObject> answer) {
        answer.onComplete(r -> {
            if (r.failed()) fail(ctx, r.cause());
            else ctx.response().putHeader("content-type", "application/json").putHeader("cache-control", "no-store").end(r.result().toBuffer());
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
