package dev.modelgateway.accounts;

import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The admin and usage HTTP API under {@code /api/v1}; see docs/accounts.md. */
final class AccountsApi {
    private static final String BASE = "/api/v1";
    private static final String ACTOR = "accounts.actor";
    private static final Duration DEFAULT_USAGE_RANGE = Duration.ofDays(30);
    private static final Logger LOG = LoggerFactory.getLogger(AccountsApi.class);

    private final Accounts accounts;

    AccountsApi(Accounts accounts) {
        this.accounts = accounts;
    }

    void mount(Router router) {
        // In the gateway the router has read the body already (64 KB cap, after the master-key check); this reads it
        // when the admin API is mounted on its own (tests, embedding).
        router.route(BASE + "/admin/keys*").handler(BodyHandler.create(false).setBodyLimit(64 * 1024));
        router.route(BASE + "/admin/teams*").handler(BodyHandler.create(false).setBodyLimit(64 * 1024));
        router.post(BASE + "/admin/teams").handler(admin(ctx -> accounts.createTeam(actor(ctx), KeyRequests.createTeam(body(ctx))).map(t -> {
            ctx.response().setStatusCode(201);
            return teamJson(t);
        })));
        router.get(BASE + "/admin/teams").handler(admin(ctx -> accounts.listTeams()
                .map(teams -> list(teams.stream().map(this::teamJson).toList()))));
        router.get(BASE + "/admin/teams/:id").handler(admin(ctx -> existingTeam(ctx).map(this::teamJson)));
        router.patch(BASE + "/admin/teams/:id").handler(admin(ctx -> {
            JsonObject body = body(ctx);
            return existingTeam(ctx).compose(team -> {
                Team changed = KeyRequests.team(team, body, false);
                return accounts.updateTeam(actor(ctx), changed).map(x -> teamJson(changed));
            });
        }));
        router.delete(BASE + "/admin/teams/:id").handler(admin(ctx -> {
            String id = ctx.pathParam("id");
            return accounts.deleteTeam(actor(ctx), id).compose(deleted -> deleted
                    ? Future.succeededFuture(new JsonObject().put("id", id).put("object", "team").put("deleted", true))
                    : Future.failedFuture(teamNotFound(id)));
        }));
        router.post(BASE + "/admin/keys").handler(admin(this::createKey));
        router.get(BASE + "/admin/keys").handler(admin(ctx -> accounts.listKeys()
                .map(keys -> list(keys.stream().map(this::keyJson).toList()))));
        router.get(BASE + "/admin/keys/:id").handler(admin(ctx -> existing(ctx).map(this::keyJson)));
        router.patch(BASE + "/admin/keys/:id").handler(admin(this::updateKey));
        router.delete(BASE + "/admin/keys/:id").handler(admin(ctx -> {
            String id = ctx.pathParam("id");
            return accounts.deleteKey(actor(ctx), id).compose(deleted -> deleted
                    ? Future.succeededFuture(new JsonObject().put("id", id).put("object", "api_key").put("deleted", true))
                    : Future.failedFuture(notFound(id)));
        }));
        router.get(BASE + "/admin/usage").handler(admin(ctx -> usage(ctx, null)));
        router.route(BASE + "/admin/reprice").handler(BodyHandler.create(false).setBodyLimit(64 * 1024));
        router.post(BASE + "/admin/reprice").handler(admin(ctx -> {
            JsonObject body = body(ctx);
            Instant from = KeyRequests.instant("from", required(body, "from"));
            Instant to = KeyRequests.instant("to", required(body, "to"));
            if (!from.isBefore(to)) throw GatewayException.invalid("from", "'from' must be before 'to'.");
            return accounts.reprice(actor(ctx), from, to).map(Repricing.Result::json);
        }));
        router.get(BASE + "/admin/alerts").handler(admin(ctx -> {
            Long limit = KeyRequests.limit("limit", param(ctx, "limit"));
            if (limit != null && limit > 1000) throw GatewayException.invalid("limit", "'limit' must be at most 1000.");
            return accounts.alertSettings().compose(settings -> accounts.alerts(limit == null ? 100 : limit.intValue())
                    .map(alerts -> list(alerts.stream().map(Alerts.Alert::json).toList()).put("settings", settings.json())));
        }));
        router.route(BASE + "/admin/alerts/settings").handler(BodyHandler.create(false).setBodyLimit(64 * 1024));
        router.patch(BASE + "/admin/alerts/settings").handler(admin(ctx ->
                accounts.updateAlertSettings(actor(ctx), body(ctx)).map(AlertSettings::json)));
        router.get(BASE + "/admin/audit").handler(admin(ctx -> {
            Long limit = KeyRequests.limit("limit", param(ctx, "limit"));
            if (limit != null && limit > 1000) throw GatewayException.invalid("limit", "'limit' must be at most 1000.");
            return accounts.auditLog(limit == null ? 100 : limit.intValue(), param(ctx, "target_id"))
                    .map(entries -> list(entries.stream().map(AuditLog.Entry::json).toList()));
        }));
        router.get(BASE + "/admin/rate-limits").handler(admin(ctx -> rateLimits()));
        router.get(BASE + "/limits").handler(ctx -> respond(ctx, accounts.authenticate(bearer(ctx)).compose(this::ownLimits)));
        router.get(BASE + "/usage").handler(ctx -> respond(ctx,
                accounts.authenticate(bearer(ctx)).compose(key -> usage(ctx, key.id()))));
    }

    private Future<JsonObject> createKey(RoutingContext ctx) {
        KeySettings settings = KeyRequests.create(body(ctx));
        return accounts.createKey(actor(ctx), settings).map(created -> {
            ctx.response().setStatusCode(201);
            return keyJson(created.key()).put("key", created.secret());
        });
    }

    private Future<JsonObject> updateKey(RoutingContext ctx) {
        JsonObject body = body(ctx);
        Object disabled = body.getValue("disabled");
        if (body.containsKey("disabled") && !(disabled instanceof Boolean)) {
            throw GatewayException.invalid("disabled", "'disabled' must be true or false.");
        }
        return existing(ctx).compose(key -> {
            KeySettings settings = KeyRequests.patch(key.settings(), body, false);
            boolean off = disabled instanceof Boolean b ? b : key.disabled();
            return accounts.updateKey(actor(ctx), key.id(), settings, off)
                    .compose(x -> existing(ctx)).map(this::keyJson);
        });
    }

    private Future<JsonObject> usage(RoutingContext ctx, String keyId) {
        Instant to = param(ctx, "to") == null ? Instant.now() : KeyRequests.instant("to", param(ctx, "to"));
        Instant from = param(ctx, "from") == null ? to.minus(DEFAULT_USAGE_RANGE) : KeyRequests.instant("from", param(ctx, "from"));
        if (!from.isBefore(to)) throw GatewayException.invalid("from", "'from' must be before 'to'.");
        List<UsageGrouping> groupBy = new ArrayList<>();
        String groups = param(ctx, "group_by");
        if (groups != null) {
            for (String g : groups.split(",")) {
                UsageGrouping grouping = UsageGrouping.parse(g);
                if (grouping == null) {
                    throw GatewayException.invalid("group_by", "'group_by' takes key, model, answered_model, day or hour"
                            + " (comma-separated to combine), not '" + g.strip() + "'.");
                }
                if (!groupBy.contains(grouping)) groupBy.add(grouping);
            }
        }
        return accounts.usage(new UsageQuery(from, to, keyId, groupBy)).map(rows -> {
            JsonArray data = new JsonArray();
            UsageTotals total = UsageTotals.ZERO;
            for (UsageQuery.Group row : rows) {
                JsonObject item = new JsonObject();
                for (int i = 0; i < groupBy.size(); i++) item.put(groupBy.get(i).field, row.labels().get(i));
                data.add(totalsJson(item, row.totals()));
                total = total.plus(row.totals());
            }
            return new JsonObject().put("object", "usage_report").put("from", from.toString()).put("to", to.toString())
                    .put("group_by", new JsonArray(groupBy.stream().map(g -> g.field).toList()))
                    .put("data", data).put("total", totalsJson(new JsonObject(), total));
        });
    }

    private Future<JsonObject> rateLimits() {
        return accounts.listKeys().compose(keys -> Future.all(keys.stream().map(this::rateLimitView).toList())
                .map(all -> list(all.<JsonObject>list())))
                .compose(view -> accounts.listTeams().compose(teams -> Future.all(teams.stream().map(this::teamRateView).toList())
                        .map(all -> view.put("teams", new JsonArray(new ArrayList<>(all.<JsonObject>list()))))));
    }

    /**
     * The caller's own limits, read-only: its buckets and budget as {@code /admin/rate-limits} shows them, and its
     * team's (shared with the team's other keys) when it has one. Never another key's or team's.
     */
    private Future<JsonObject> ownLimits(ApiKey caller) {
        if (caller.master()) {
            return Future.failedFuture(GatewayException.of(ErrorKind.INVALID_REQUEST, "The master key has no limits of its own: every key's are at"
                    + " /api/v1/admin/rate-limits.").withCode("master_key_unlimited"));
        }
        return accounts.findKey(caller.id()).compose(found -> {
            StoredKey key = found.orElseThrow(() -> notFound(caller.id()));
            Future<JsonObject> team = key.team() == null ? Future.succeededFuture(null) : teamRateView(key.team());
            return rateLimitView(key).compose(own -> team.map(t -> new JsonObject().put("object", "limits").put("key", own).put("team", t)));
        });
    }

    /** A team's shared buckets, as a key's own are shown, and its budget in its period. */
    private Future<JsonObject> teamRateView(Team team) {
        JsonObject item = new JsonObject().put("team_id", team.id()).put("name", team.name()).put("rpm", team.rpm())
                .put("tpm", team.tpm()).put("models", new JsonArray(team.allowedModels()))
                .put("budget_usd", team.budgetUsd() == null ? null : team.budgetUsd().toPlainString())
                .put("budget_period", team.budgetPeriod().wire)
                .put("period_spent_usd", Money.text(accounts.spentE10(team.holder(), team.budgetPeriod())))
                .put("spent_usd", Money.text(accounts.spentE10(team.holder(), BudgetPeriod.LIFETIME)));
        RateScope scope = RateScope.team(team);
        if (scope == null) return Future.succeededFuture(item.putNull("requests").putNull("tokens"));
        return accounts.currentRates(List.of(scope)).map(levels -> windows(item, scope.limits(), levels.getFirst()));
    }

    /** A key's limits and current consumption: its own buckets, then those of each model limit. */
    private Future<JsonObject> rateLimitView(StoredKey key) {
        ApiKey apiKey = key.toApiKey();
        RateLimits own = RateLimits.of(apiKey);
        List<RateScope> scopes = new ArrayList<>();
        if (!own.none()) scopes.add(new RateScope(key.id(), null, own));
        apiKey.modelLimits().forEach(m -> scopes.add(new RateScope(key.id(), m.models(), m.limits())));
        JsonObject item = new JsonObject().put("key_id", key.id()).put("name", key.settings().name())
                .put("team_id", key.settings().teamId())
                .put("disabled", key.disabled()).put("rpm", key.settings().rpm()).put("tpm", key.settings().tpm())
                .put("max_concurrent", effectiveMaxConcurrent(key))
                .put("budget_usd", key.budgetUsd() == null ? null : key.budgetUsd().toPlainString())
                .put("budget_period", key.settings().budgetPeriod().wire)
                .put("period_spent_usd", Money.text(accounts.spentE10(key.id(), key.settings().budgetPeriod())))
                .put("spent_usd", Money.text(accounts.spentE10(key.id())));
        return accounts.currentRates(scopes).map(levels -> {
            int next = 0;
            if (own.none()) item.putNull("requests").putNull("tokens");
            else windows(item, own, levels.get(next++));
            JsonArray models = new JsonArray();
            for (ModelLimit m : apiKey.modelLimits()) {
                models.add(windows(new JsonObject().put("models", m.models()).put("rpm", m.rpm()).put("tpm", m.tpm()),
                        m.limits(), levels.get(next++)));
            }
            return item.put("model_limits", models);
        });
    }

    private static JsonObject windows(JsonObject into, RateLimits limits, RateDecision d) {
        return into.put("requests", limits.rpm() > 0 ? window(limits.rpm(), d.requestLevel(), d.requestsResetMs()) : null)
                .put("tokens", limits.tpm() > 0 ? window(limits.tpm(), d.tokenLevel(), d.tokensResetMs()) : null);
    }

    /** A bucket seen as a window: what was used recently (more than the limit while in debt) and what is left. */
    private static JsonObject window(long limit, double level, long resetMs) {
        return new JsonObject().put("limit", limit).put("used", Math.max(0, Math.round(limit - level)))
                .put("remaining", (long) Math.floor(Math.max(0, level))).put("reset", GoDuration.format(resetMs));
    }

    private JsonObject teamJson(Team t) {
        return new JsonObject().put("id", t.id()).put("object", "team").put("name", t.name())
                .put("models", new JsonArray(t.allowedModels())).put("rpm", t.rpm()).put("tpm", t.tpm())
                .put("budget_usd", t.budgetUsd() == null ? null : t.budgetUsd().toPlainString())
                .put("budget_period", t.budgetPeriod().wire)
                .put("period_spent_usd", Money.text(accounts.spentE10(t.holder(), t.budgetPeriod())))
                .put("spent_usd", Money.text(accounts.spentE10(t.holder(), BudgetPeriod.LIFETIME)))
                .put("created_at", t.createdAt().toString());
    }

    private Future<Team> existingTeam(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        return accounts.findTeam(id).compose(t -> t.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(teamNotFound(id))));
    }

    private static GatewayException teamNotFound(String id) {
        return GatewayException.of(ErrorKind.NOT_FOUND, "No team with id '" + id + "'.").withParam("id").withCode("team_not_found");
    }

    private JsonObject keyJson(StoredKey key) {
        KeySettings s = key.settings();
        return new JsonObject().put("id", key.id()).put("object", "api_key").put("name", s.name())
                .put("prefix", key.prefix()).put("models", new JsonArray(s.allowedModels()))
                .put("rpm", s.rpm()).put("tpm", s.tpm()).put("model_limits", ModelLimit.toJson(s.modelLimits()))
                .put("team_id", s.teamId())
                .put("budget_usd", s.budgetUsd() == null ? null : s.budgetUsd().toPlainString())
                .put("budget_period", s.budgetPeriod().wire)
                .put("period_spent_usd", Money.text(accounts.spentE10(key.id(), s.budgetPeriod())))
                .put("spent_usd", Money.text(accounts.spentE10(key.id())))
                .put("max_concurrent", s.maxConcurrent())
                .put("effective_max_concurrent", effectiveMaxConcurrent(key))
                .put("expires_at", s.expiresAt() == null ? null : s.expiresAt().toString())
                .put("disabled", key.disabled()).put("created_at", key.createdAt().toString());
    }

    /** The bound that applies: the key's own, else the gateway's default; null when there is none. */
    private Integer effectiveMaxConcurrent(StoredKey key) {
        int max = accounts.maxConcurrent(key.toApiKey());
        return max > 0 ? max : null;
    }

    private static JsonObject totalsJson(JsonObject into, UsageTotals t) {
        return into.put("requests", t.requests()).put("failed_requests", t.failedRequests())
                .put("input_tokens", t.inputTokens()).put("cache_read_tokens", t.cacheReadTokens())
                .put("cache_write_5m_tokens", t.cacheWrite5mTokens()).put("cache_write_1h_tokens", t.cacheWrite1hTokens())
                .put("output_tokens", t.outputTokens()).put("reasoning_tokens", t.reasoningTokens())
                .put("total_tokens", t.inputTokens() + t.cacheReadTokens() + t.cacheWrite5mTokens()
                        + t.cacheWrite1hTokens() + t.outputTokens())
                .put("cost_usd", Money.text(t.costE10()));
    }

    private static JsonObject list(List<JsonObject> items) {
        return new JsonObject().put("object", "list").put("data", new JsonArray(new ArrayList<>(items)));
    }

    private Future<StoredKey> existing(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        return accounts.findKey(id).compose(k -> k.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(notFound(id))));
    }

    /** Who made an admin change, for the audit log: the key id the admin operation authenticated with. */
    private static String actor(RoutingContext ctx) {
        ApiKey key = ctx.get(ACTOR);
        return key == null ? "unknown" : key.id();
    }

    /** Runs an admin operation after checking that the caller holds the master key. */
    private Handler<RoutingContext> admin(Function<RoutingContext, Future<JsonObject>> operation) {
        return ctx -> respond(ctx, accounts.authenticate(bearer(ctx)).compose(key -> {
            ctx.put(ACTOR, key);
            if (!key.master()) {
                return Future.failedFuture(GatewayException.of(ErrorKind.AUTHENTICATION, accounts.masterKeyConfigured()
                        ? "Admin routes need the master key." : "The admin API is disabled: no master key is configured.")
                                .withCode("master_key_required"));
            }
            return operation.apply(ctx);
        }));
    }

    private static void respond(RoutingContext ctx, Future<JsonObject> result) {
        result.onComplete(ar -> {
            if (ar.succeeded()) {
                ctx.response().putHeader("content-type", "application/json").end(ar.result().encode());
            } else {
                error(ctx, ar.cause());
            }
        });
    }

    private static void error(RoutingContext ctx, Throwable cause) {
        GatewayException e = cause instanceof GatewayException g ? g : internal(cause);
        var response = ctx.response().setStatusCode(e.status()).putHeader("content-type", "application/json");
        e.headers().forEach(response::putHeader);
        response.end(new JsonObject().put("error", new JsonObject().put("message", e.getMessage())
                .put("type", errorType(e.kind())).put("param", e.param()).put("code", e.code())).encode());
    }

    private static GatewayException internal(Throwable cause) {
        LOG.error("accounts API failure", cause);
        return GatewayException.of(ErrorKind.INTERNAL, "Internal error in the accounts API.");
    }

    private static String errorType(ErrorKind kind) {
        return switch (kind) {
            case INVALID_REQUEST -> "invalid_request_error";
            case AUTHENTICATION -> "authentication_error";
            case PERMISSION -> "permission_error";
            case NOT_FOUND -> "not_found_error";
            case RATE_LIMIT -> "rate_limit_error";
            default -> "server_error";
        };
    }

    private static GatewayException notFound(String id) {
        return GatewayException.of(ErrorKind.NOT_FOUND, "No API key with id '" + id + "'.")
                .withParam("id").withCode("key_not_found");
    }

    private static JsonObject body(RoutingContext ctx) {
        try {
            JsonObject body = ctx.body().asJsonObject();
            if (body == null) throw new DecodeException("empty body");
            return body;
        } catch (DecodeException | ClassCastException e) {
            throw GatewayException.invalid(null, "The request body must be a JSON object.");
        }
    }

    private static Object required(JsonObject body, String field) {
        Object v = body.getValue(field);
        if (v == null) throw GatewayException.invalid(field, "'" + field + "' is required.");
        return v;
    }

    private static String bearer(RoutingContext ctx) {
        String auth = ctx.request().getHeader("authorization");
        if (auth == null || !auth.regionMatches(true, 0, "Bearer ", 0, 7)) return null;
        return auth.substring(7).strip();
    }

    private static String param(RoutingContext ctx, String name) {
        String v = ctx.request().getParam(name);
        return v == null || v.isBlank() ? null : v;
    }
}
