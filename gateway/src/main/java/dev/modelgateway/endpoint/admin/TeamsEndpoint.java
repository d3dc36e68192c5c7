package dev.modelgateway.endpoint.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.access.Reach;
import dev.modelgateway.accounts.Administration;
import dev.modelgateway.accounts.keys.BudgetPeriod;
import dev.modelgateway.accounts.keys.KeyRequests;
import dev.modelgateway.accounts.keys.Team;
import dev.modelgateway.accounts.ledger.Money;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import static dev.modelgateway.endpoint.admin.AdminReplies.actor;
import static dev.modelgateway.endpoint.admin.AdminReplies.body;
import static dev.modelgateway.endpoint.admin.AdminReplies.respond;

/** {@code /admin/teams}: teams whose keys share an allow-list, limits and a budget (docs/accounts.md). */
public final class TeamsEndpoint {
    private final Administration accounts;

    public TeamsEndpoint(Administration accounts) {
        this.accounts = accounts;
    }

    public void create(RoutingContext ctx) {
        Team settings = KeyRequests.createTeam(body(ctx));
        respond(ctx, accounts.createTeam(actor(ctx), settings).map(t -> {
            ctx.response().setStatusCode(201);
            return json(t);
        }));
    }

    /** The teams within the principal's reach. */
    public void list(RoutingContext ctx) {
        Reach reach = AdminAccess.reach(ctx);
        respond(ctx, accounts.listTeams().map(teams -> AdminReplies.list(teams.stream().filter(t -> reach.team(t.id())).map(this::json).toList())));
    }

    public void get(RoutingContext ctx) {
        Reach reach = AdminAccess.reach(ctx);
        respond(ctx, existing(ctx.pathParam("id")).map(t -> {
            if (!reach.team(t.id())) throw AdminAccess.outsideReach("Team '" + t.id() + "' is outside this credential's reach.");
            return json(t);
        }));
    }

    /** Applied to the team as the transaction reads it: concurrent changes of different fields all stay. */
    public void update(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        respond(ctx, accounts.patchTeam(actor(ctx), id, body(ctx))
                .compose(t -> t.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(notFound(id))))
                .map(this::json));
    }

    public void delete(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        respond(ctx, accounts.deleteTeam(actor(ctx), id).compose(deleted -> deleted
                ? Future.succeededFuture(AdminReplies.deleted(id, "team")) : Future.failedFuture(notFound(id))));
    }

    private Future<Team> existing(String id) {
        return accounts.findTeam(id).compose(t -> t.map(Future::succeededFuture).orElseGet(() -> Future.failedFuture(notFound(id))));
    }

    private static GatewayException notFound(String id) {
        return GatewayException.of(ErrorKind.NOT_FOUND, "No team with id '" + id + "'.").withParam("id").withCode("team_not_found");
    }

    private ObjectNode json(Team t) {
        ObjectNode json = Json.MAPPER.createObjectNode().put("id", t.id()).put("object", "team").put("name", t.name());
        json.set("models", AdminReplies.strings(t.allowedModels()));
        return json.put("rpm", t.rpm()).put("tpm", t.tpm())
                .put("budget_usd", t.budgetUsd() == null ? null : t.budgetUsd().toPlainString())
                .put("budget_period", t.budgetPeriod().wire)
                .put("period_spent_usd", Money.text(accounts.spentE10(t.holder(), t.budgetPeriod())))
                .put("spent_usd", Money.text(accounts.spentE10(t.holder(), BudgetPeriod.LIFETIME)))
                .put("created_at", t.createdAt().toString());
    }
}
