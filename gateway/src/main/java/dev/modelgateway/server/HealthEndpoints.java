package dev.modelgateway.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.json.Json;
import dev.modelgateway.observability.Telemetry;
import dev.modelgateway.redis.RedisClients;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.routing.Deployment;
import dev.modelgateway.routing.RoutingTable;
import dev.modelgateway.upstream.VendorClients;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * {@code /health} (liveness: the event loop answers; with the release and each vendor's health as details), {@code /ready}
 * (readiness: this instance can serve, its accounts database answers, Redis too when configured; a vendor's outage is
 * not the instance's, so it never takes the instance out of a load balancer; 503 from the first moment of a shutdown's
 * drain) and {@code /metrics} (Prometheus text format), on the main port or on {@code observability.metrics_port}
 * (docs/observability.md).
 */
public final class HealthEndpoints {
    static final long PROBE_SECONDS = 2;
    /** Prometheus' text exposition format (prometheus.io/docs/instrumenting/exposition_formats). */
    static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

    private final Vertx vertx;
    private final GatewayConfig config;
    private final Accounts accounts;
    private final CircuitBreakers breakers;
    private final RoutingTable routes;
    private final Telemetry telemetry;
    private final Drain drain;
    /** Each event loop's vendor clients, for the pool-usage gauges (added as the verticles start). */
    private final List<VendorClients> clients = new CopyOnWriteArrayList<>();

    HealthEndpoints(Vertx vertx, GatewayConfig config, Accounts accounts, CircuitBreakers breakers, RoutingTable routes,
                    Telemetry telemetry, Drain drain) {
        this.routes = routes;
        this.drain = drain;
        this.vertx = vertx;
        this.config = config;
        this.accounts = accounts;
        this.breakers = breakers;
        this.telemetry = telemetry;
        telemetry.gauge("gateway.ledger.queue.depth", "Usage rows waiting for the ledger's writer", Map.of(), accounts,
                Accounts::ledgerQueued);
        telemetry.gauge("gateway.ledger.lag.seconds", "How long the oldest queued usage row has waited", Map.of(), accounts,
                a -> a.ledgerLagMs() / 1000.0);
    }

    /** Whether {@code /metrics} is served (observability.metrics). */
    boolean servesMetrics() {
        return telemetry.config().metrics();
    }

    static void live(RoutingContext ctx) {
        ctx.response().putHeader("content-type", "application/json").end("{\"status\":\"ok\"}");
    }

    /** Liveness, with each vendor's health: whether a configured deployment of it in the routes in force is usable. */
    void health(RoutingContext ctx) {
        Map<Vendor, Boolean> usable = new EnumMap<>(Vendor.class);
        for (List<Deployment> deployments : routes.current().all().values()) {
            for (Deployment d : deployments) {
                if (!d.endpoint().configured()) continue;
                boolean open = breakers.of(d.endpoint()).stateCode() == 2;
                usable.merge(d.endpoint().vendor(), !open, Boolean::logicalOr);
            }
        }
        ObjectNode out = Json.MAPPER.createObjectNode().put("status", "ok").put("version", Version.current());
        ObjectNode vendors = out.putObject("vendors");
        for (Vendor v : Vendor.values()) {
            Boolean ok = usable.get(v);
            vendors.put(v.id(), ok == null ? "not_configured" : ok ? "ok" : "circuit_open");
        }
        ctx.response().putHeader("content-type", "application/json").end(Json.toBuffer(out));
    }

    void served(VendorClients loopClients) {
        clients.add(loopClients);
    }

    void stopped(VendorClients loopClients) {
        clients.remove(loopClients);
    }

    void ready(RoutingContext ctx) {
        if (drain.draining()) {
            // before anything else of the shutdown: the load balancer stops sending new calls while those in flight go on
            ctx.response().setStatusCode(503).putHeader("content-type", "application/json").end("{\"status\":\"draining\"}");
            return;
        }
        ObjectNode checks = Json.MAPPER.createObjectNode();
        List<Future<?>> all = new ArrayList<>();
        all.add(check(checks, "database", accounts.databaseReachable()));
        if (config.redisUrl() != null) all.add(check(checks, "redis", redisReachable()));
        Future.join(all).onComplete(done -> {
            // a drain that began during the probes wins
            boolean ready = all.stream().allMatch(Future::succeeded) && !drain.draining();
            if (ctx.response().closed()) return;
            ctx.response().setStatusCode(ready ? 200 : 503).putHeader("content-type", "application/json")
                    .end(Json.toBuffer(Json.MAPPER.createObjectNode().put("status", ready ? "ready" : "not_ready").set("checks", checks)));
        });
    }

    private static Future<?> check(ObjectNode checks, String name, Future<?> probe) {
        return probe.timeout(PROBE_SECONDS, TimeUnit.SECONDS)
                .onSuccess(v -> checks.put(name, "ok"))
                .onFailure(e -> checks.put(name, "unreachable"));
    }

    private Future<Void> redisReachable() {
        Redis probe = RedisClients.probe(vertx, config.redisUrl(), RedisSettings.of(config.settings()),
                (int) TimeUnit.SECONDS.toMillis(PROBE_SECONDS));
        return probe.connect().compose(c -> c.send(Request.cmd(Command.PING)).eventually(c::close))
                .<Void>mapEmpty().eventually(probe::close);
    }

    void metrics(RoutingContext ctx) {
        breakers.all().forEach((deployment, breaker) -> telemetry.gauge("gateway.circuit_breaker.state",
                "Circuit breaker per deployment (its id: \"vendor base-URL\" or a routed deployment's): 0 closed, 1 half-open, 2 open",
                Map.of("deployment", deployment), breaker, CircuitBreaker::stateCode));
        for (VendorClients loop : clients) {
            // by provider, not address: /metrics needs no key, and a base URL may name an internal host or carry a credential
            loop.callsByProvider().keySet().forEach(provider -> telemetry.gauge("gateway.upstream.pool.calls",
                    "Calls holding or waiting for an upstream connection, all event loops together",
                    Map.of("provider", provider), clients,
                    all -> all.stream().mapToInt(c -> c.callsByProvider().getOrDefault(provider, 0)).sum()));
        }
        // rendering every series is work that grows with them: beside the event loop
        vertx.executeBlocking(() -> telemetry.metrics().scrape(), false).onComplete(ar -> {
            if (ar.failed()) {
                ctx.fail(ar.cause());
                return;
            }
            ctx.response().putHeader("content-type", PROMETHEUS_TEXT).end(ar.result());
        });
    }

}
