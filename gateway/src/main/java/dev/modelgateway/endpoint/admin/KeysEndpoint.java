package dev.modelgateway.endpoint.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.KeyReach;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.accounts.keys.KeySettings;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.accounts.keys.StoredKey;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Set;

import static dev.modelgateway.endpoint.admin.AdminReplies.actor;
import static dev.modelgateway.endpoint.admin.AdminReplies.body;
import static dev.modelgateway.endpoint.admin.AdminReplies.respond;

/** {@code /admin/keys}: create, list, show, change and delete API keys (docs/accounts.md). */
public final class KeysEndpoint {
    private final Administration accounts;

    public KeysEndpoint(Administration accounts) {
        this.accounts = accounts;
    }

    /**
     * Within the creator's reach (docs/identity/roles.md): a principal of one team puts the key in it unless the body
     * names another; one that reaches only its own keys makes a key it owns.
     */
    public void create(RoutingContext ctx) {
        ObjectNode body = body(ctx);
        KeySettings settings = KeyRequests.create(body);
        KeyReach reach = AdminAccess.keyReach(ctx);
        String owner = null;
        if (!reach.org()) {
            boolean ownOnly = reach.reach().teams().isEmpty();
            if (ownOnly) owner = reach.reach().owner();
            Set<String> teams = ownOnly ? reach.ownTeams() : reach.reach().teams();
            if (!body.has("team_id") && teams.size() == 1) settings = settings.inTeam(teams.iterator().next());
        }
        respond(ctx, accounts.createKey(actor(ctx), settings, KeyRequests.disabled(body, false), reach, owner).map(created -> {
            ctx.response().setStatusCode(201);
            return json(created.key()).put("key", created.secret());
        }));
    }

    /** The keys within the principal's reach. */
    public void list(RoutingContext ctx) {
        KeyReach reach = AdminAccess.keyReach(ctx);
        respond(ctx, accounts.listKeys().map(keys -> AdminReplies.list(keys.stream().filter(reach::reaches).map(this::json).toList())));
    }

    public void get(RoutingContext ctx) {
        KeyReach reach = AdminAccess.keyReach(ctx);
        respond(ctx, existing(ctx.pathParam("id")).map(key -> {
            if (!reach.reaches(key)) throw AdminAccess.outsideReach("API key '" + key.id() + "' is outside this credential's reach.");
            return json(key);
        }));
    }

    /** Applied to the key as the transaction reads it: concurrent changes of different fields all stay. */
    public void update(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        respond(ctx, accounts.patchKey(actor(ctx), id, body(ctx), AdminAccess.keyReach(ctx))
                .compose(k -> k.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(notFound(id))))
                .map(this::json));
    }

    /**
     * {@code POST /admin/keys/{id}/rotate}: a new secret for the same key, shown this once; the previous one accepted
     * for the body's {@code grace_seconds} more (docs/operations/key-rotation.md).
     */
    public void rotate(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        respond(ctx, accounts.rotateKey(actor(ctx), id, body(ctx), AdminAccess.keyReach(ctx))
                .compose(k -> k.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(notFound(id))))
                .map(rotated -> json(rotated.key()).put("key", rotated.secret())));
    }

    public void delete(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        respond(ctx, accounts.deleteKey(actor(ctx), id, AdminAccess.keyReach(ctx)).compose(deleted -> deleted
                ? Future.succeededFuture(AdminReplies.deleted(id, "api_key")) : Future.failedFuture(notFound(id))));
    }

    private Future<StoredKey> existing(String id) {
        return accounts.findKey(id).compose(k -> k.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(notFound(id))));
    }

    static GatewayException notFound(String id) {
        return GatewayException.of(ErrorKind.NOT_FOUND, "No API key with id '" + id + "'.").withParam("id").withCode("key_not_found");
    }

    private ObjectNode json(StoredKey key) {
        KeySettings s = key.settings();
        ObjectNode json = Json.MAPPER.createObjectNode().put("id", key.id()).put("object", "api_key").put("name", s.name())
                .put("prefix", key.prefix());
        json.set("models", AdminReplies.strings(s.allowedModels()));
        json.put("rpm", s.rpm()).put("tpm", s.tpm());
        json.set("model_limits", modelLimits(s.modelLimits()));
        json.put("team_id", s.teamId())
                .put("owner_user_id", key.ownerUserId())
                .put("budget_usd", s.budgetUsd() == null ? null : s.budgetUsd().toPlainString())
                .put("budget_period", s.budgetPeriod().wire)
                .put("period_spent_usd", Money.text(accounts.spentE10(key.id(), s.budgetPeriod())))
                .put("spent_usd", Money.text(accounts.spentE10(key.id())))
                .put("max_concurrent", s.maxConcurrent())
                .put("effective_max_concurrent", effectiveMaxConcurrent(accounts, key))
                .put("expires_at", AdminReplies.text(s.expiresAt()))
                .put("disabled", key.disabled()).put("created_at", key.createdAt().toString());
        // the secret a rotation replaced: its prefix and the end of its grace (past once it is refused)
        if (key.previous() == null) json.putNull("previous_secret");
        else json.putObject("previous_secret").put("prefix", key.previous().prefix())
                .put("accepted_until", key.previous().acceptedUntil().toString());
        return json;
    }

    /** {@code {"<glob>": {"rpm", "tpm"}}} in matching order. */
    static ObjectNode modelLimits(List<ModelLimit> limits) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        for (ModelLimit l : limits) json.putObject(l.models()).put("rpm", l.rpm()).put("tpm", l.tpm());
        return json;
    }

    /** The bound that applies: the key's own, else the gateway's default; null when there is none. */
    static Integer effectiveMaxConcurrent(Administration accounts, StoredKey key) {
        int max = accounts.maxConcurrent(key.toApiKey());
        return max > 0 ? max : null;
    }
}
