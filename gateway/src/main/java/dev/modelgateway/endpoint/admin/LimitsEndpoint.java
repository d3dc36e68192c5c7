package dev.modelgateway.endpoint.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.KeyReach;
import dev.modelgateway.accounts.ApiKey;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.accounts.limits.GoDuration;
import dev.modelgateway.accounts.limits.RateDecision;
import dev.modelgateway.accounts.limits.RateLimits;
import dev.modelgateway.accounts.limits.RateScope;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /admin/rate-limits} (every key's and team's limits and what is left of them) and {@code GET /limits}
 * (the caller's own entry, and its team's).
 */
public final class LimitsEndpoint {
    private final Administration accounts;

    public LimitsEndpoint(Administration accounts) {
        this.accounts = accounts;
    }

    /** Every key's and team's, or, below the organisation, those within reach (its teams and their keys, its own keys). */
    public void all(RoutingContext ctx) {
        KeyReach reach = AdminAccess.keyReach(ctx);
        AdminReplies.respond(ctx, accounts.listKeys().compose(keys -> Future.all(keys.stream().filter(reach::reaches).map(k -> keyView(k.toApiKey())).toList())
                .map(all -> AdminReplies.list(all.<ObjectNode>list())))
                .compose(view -> accounts.listTeams().compose(teams -> Future.all(teams.stream()
                                .filter(t -> reach.reach().team(t.id())).map(this::teamView).toList())
                        .map(all -> {
                            view.putArray("teams").addAll(all.<ObjectNode>list());
                            return view;
                        }))));
    }

    /**
     * The caller's own limits, read-only: its buckets and budget as {@code /admin/rate-limits} shows them, and its
     * team's (shared with the team's other keys) when it has one. Never another key's or team's.
     */
    public void own(RoutingContext ctx) {
        ApiKey caller = Exchange.of(ctx).caller().key();
        if (caller.master()) {
            throw GatewayException.of(ErrorKind.INVALID_REQUEST, "The master key has no limits of its own: every key's are at"
                    + " /api/v1/admin/rate-limits.").withCode("master_key_unlimited");
        }
        // a user calling with an identity provider's token has no stored key: its limits are its mapping's
        Future<ApiKey> current = caller.forUser() ? Future.succeededFuture(caller) : accounts.findKey(caller.id())
                .map(found -> found.orElseThrow(() -> KeysEndpoint.notFound(caller.id())).toApiKey());
        AdminReplies.respond(ctx, current.compose(key -> {
            Future<ObjectNode> team = key.team() == null ? Future.succeededFuture(null) : teamView(key.team());
            return keyView(key).compose(own -> team.map(t -> {
                ObjectNode limits = Json.MAPPER.createObjectNode().put("object", "limits");
                limits.set("key", own);
                limits.set("team", t == null ? limits.nullNode() : t);
                return limits;
            }));
        }));
    }

    /** A team's shared buckets, as a key's own are shown, and its budget in its period. */
    private Future<ObjectNode> teamView(Team team) {
        ObjectNode item = Json.MAPPER.createObjectNode().put("team_id", team.id()).put("name", team.name()).put("rpm", team.rpm())
                .put("tpm", team.tpm());
        item.set("models", AdminReplies.strings(team.allowedModels()));
        item.put("budget_usd", team.budgetUsd() == null ? null : team.budgetUsd().toPlainString())
                .put("budget_period", team.budgetPeriod().wire)
                .put("period_spent_usd", Money.text(accounts.spentE10(team.holder(), team.budgetPeriod())))
                .put("spent_usd", Money.text(accounts.spentE10(team.holder(), BudgetPeriod.LIFETIME)));
        RateScope scope = RateScope.team(team);
        if (scope == null) return Future.succeededFuture(item.putNull("requests").putNull("tokens"));
        return accounts.currentRates(List.of(scope)).map(levels -> windows(item, scope.limits(), levels.getFirst()));
    }

    /** A key's limits and current consumption: its own buckets, then those of each model limit. */
    private Future<ObjectNode> keyView(ApiKey key) {
        RateLimits own = RateLimits.of(key);
        List<RateScope> scopes = new ArrayList<>();
        // the buckets live where admissions put them: in the team's hash slot when the key has a team
        String team = key.teamId() == null ? null : Team.HOLDER_PREFIX + key.teamId();
        if (!own.none()) scopes.add(RateScope.ofKey(key.id(), team, null, own));
        key.modelLimits().forEach(m -> scopes.add(RateScope.ofKey(key.id(), team, m.models(), RateLimits.of(m))));
        int maxConcurrent = accounts.maxConcurrent(key);
        ObjectNode item = Json.MAPPER.createObjectNode().put("key_id", key.id()).put("name", key.name())
                .put("team_id", key.teamId())
                .put("disabled", key.disabled()).put("rpm", key.rpm()).put("tpm", key.tpm())
                .put("max_concurrent", maxConcurrent > 0 ? maxConcurrent : null)
                .put("budget_usd", key.budgetUsd() == null ? null : key.budgetUsd().toPlainString())
                .put("budget_period", key.budgetPeriod().wire)
                .put("period_spent_usd", Money.text(accounts.spentE10(key.id(), key.budgetPeriod())))
                .put("spent_usd", Money.text(accounts.spentE10(key.id())));
        return accounts.currentRates(scopes).map(levels -> {
            int next = 0;
            if (own.none()) item.putNull("requests").putNull("tokens");
            else windows(item, own, levels.get(next++));
            ArrayNode models = item.putArray("model_limits");
            for (ModelLimit m : key.modelLimits()) {
                windows(models.addObject().put("models", m.models()).put("rpm", m.rpm()).put("tpm", m.tpm()),
                        RateLimits.of(m), levels.get(next++));
            }
            return item;
        });
    }

    private static ObjectNode windows(ObjectNode into, RateLimits limits, RateDecision d) {
        into.set("requests", limits.rpm() > 0 ? window(limits.rpm(), d.requestLevel(), d.requestsResetMs()) : into.nullNode());
        into.set("tokens", limits.tpm() > 0 ? window(limits.tpm(), d.tokenLevel(), d.tokensResetMs()) : into.nullNode());
        return into;
    }

    /** A bucket seen as a window: what was used recently (more than the limit while in debt) and what is left. */
    private static ObjectNode window(long limit, double level, long resetMs) {
        return Json.MAPPER.createObjectNode().put("limit", limit).put("used", Math.max(0, Math.round(limit - level)))
                .put("remaining", (long) Math.floor(Math.max(0, level))).put("reset", GoDuration.format(resetMs));
    }
}
