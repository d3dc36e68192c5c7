package dev.modelgateway.server;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.services.ResponseStore;
import dev.modelgateway.services.SharedServices;
import dev.modelgateway.services.TranscriptionTasks;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Starts and stops a gateway on a Vert.x instance: the accounts store, then one verticle per event loop. */
public final class Gateway {
    private final Vertx vertx;
    private final String deploymentId;
    private final int port;
    private final Accounts accounts;
    private final SharedServices services;

    private Gateway(Vertx vertx, String deploymentId, int port, Accounts accounts, SharedServices services) {
        this.vertx = vertx;
        this.deploymentId = deploymentId;
        this.port = port;
        this.accounts = accounts;
        this.services = services;
    }

    /**
     * @param instances event loops to serve on; with port 0 a free port is picked first, so that all
     *                  instances share it
     */
    public static Future<Gateway> start(Vertx vertx, GatewayConfig config, int instances) {
        return start(vertx, config, instances, CircuitBreaker.Thresholds.DEFAULT);
    }

    /** @param breaker when the circuit breaker of a vendor deployment opens, and for how long */
    public static Future<Gateway> start(Vertx vertx, GatewayConfig config, int instances, CircuitBreaker.Thresholds breaker) {
        Catalogue catalogue = Catalogue.loadDefault(config.upstreamOverrides());
        int port = config.port() == 0 ? FreePort.pick() : config.port();
        GatewayConfig bound = config.withPort(port);
        AccountsConfig accountsConfig = new AccountsConfig(config.databaseUrl(), config.redisUrl(), config.masterKey());
        CircuitBreakers breakers = new CircuitBreakers(breaker);
        BodyBudget bodies = new BodyBudget(config.limits().bufferedBodyBudget());
        ConnectionGuard connections = new ConnectionGuard(config.limits());
        return Accounts.open(vertx, accountsConfig, catalogue).compose(accounts ->
                TranscriptionTasks.start(vertx, bound, catalogue, accounts, breakers).compose(tasks -> {
                    SharedServices services = new SharedServices(new ResponseStore(), tasks);
                    return vertx.deployVerticle(() -> new GatewayVerticle(bound, catalogue, accounts, services, breakers, bodies, connections),
                                    new DeploymentOptions().setInstances(instances))
                            .map(id -> new Gateway(vertx, id, port, accounts, services));
                }));
    }

    public int port() {
        return port;
    }

    public Accounts accounts() {
        return accounts;
    }

    /** Stops serving, then flushes the usage ledger: a graceful stop loses no usage record. */
    public Future<Void> stop() {
        return vertx.undeploy(deploymentId).eventually(services.transcriptions()::close).eventually(accounts::close);
    }
}
