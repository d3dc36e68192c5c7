package dev.modelgateway.server;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.PriceBook;
import dev.modelgateway.config.ConfigLoader;
import dev.modelgateway.config.ConfigValues;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.RedisSettings;
import dev.modelgateway.config.Settings;
import dev.modelgateway.identity.IdentityHttp;
import dev.modelgateway.identity.TokenCallers;
import dev.modelgateway.routing.Deployment;
import dev.modelgateway.routing.RoutePrices;
import dev.modelgateway.routing.Routes;
import dev.modelgateway.routing.RoutingTable;
import dev.modelgateway.upstream.CallsInFlight;
import dev.modelgateway.upstream.CloudAuth;
import dev.modelgateway.upstream.SharedCooldowns;
import dev.modelgateway.config.ServerTls;
import dev.modelgateway.observability.ObservabilityConfig;
import dev.modelgateway.observability.Redaction;
import dev.modelgateway.observability.Telemetry;
import dev.modelgateway.redis.RedisClients;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.services.SharedServices;
import dev.modelgateway.services.TranscriptionTasks;
import dev.modelgateway.store.Database;
import dev.modelgateway.time.Ticker;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Route;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.TimeoutException;

/** Starts and stops a gateway on a Vert.x instance: the accounts store, then one verticle per event loop. */
public final class Gateway {
    /** Start-up (database, migrations, Redis, listening) fails rather than hangs past this. */
    static final long STARTUP_TIMEOUT_SECONDS = 60;
    static final long REDIS_PROBE_SECONDS = 10;
    /**
     * The bound of {@link #stop()} past the drain: the cut calls' rows ({@link Drain#RECORD_GRACE_MS}), the port's close,
     * the transcription tasks, the stored responses and owners (5 s), the ledger and the Redis closes (5 s at most).
     */
    public static final long AFTER_DRAIN_SECONDS = 10;

    private final Vertx vertx;
    private final String deploymentId;
    private final int port;
    private final Accounts accounts;
    private final SharedServices services;
    private final ConfigReload reload;
    /** Null without Redis. */
    private final SharedCooldowns cooldowns;
    private final Telemetry telemetry;
    /** The server of {@code observability.metrics_port}, null when the main port serves the metrics. */
    private final HttpServer metricsServer;
    private final AtomicReference<List<Route>> routes;
    private final Drain drain;
    private final long drainSeconds;
    /** The one shutdown, once {@link #stop()} has begun it. */
    private Future<Void> stopped;

    private Gateway(Vertx vertx, String deploymentId, int port, Accounts accounts, SharedServices services, ConfigReload reload,
                    SharedCooldowns cooldowns, Telemetry telemetry, HttpServer metricsServer, AtomicReference<List<Route>> routes,
                    Drain drain, long drainSeconds) {
        this.routes = routes;
        this.drain = drain;
        this.drainSeconds = drainSeconds;
        this.reload = reload;
        this.cooldowns = cooldowns;
        this.telemetry = telemetry;
        this.metricsServer = metricsServer;
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
        return start(vertx, config, instances, observability(config.settings()), Ticker.SYSTEM, InstantSource.system());
    }

    /** The {@code observability} section and the access log's format, as read with the rest of the configuration. */
    static ObservabilityConfig observability(ConfigValues v) {
        return new ObservabilityConfig(v.flag(Settings.OBSERVABILITY_METRICS), v.integer(Settings.OBSERVABILITY_METRICS_PORT),
                "json".equalsIgnoreCase(v.text(Settings.ACCESS_LOG_FORMAT)), v.flag(Settings.OBSERVABILITY_CAPTURE_CONTENT),
                v.text(Settings.OBSERVABILITY_ATTRIBUTE_HEADER_PREFIX), v.flag(Settings.OBSERVABILITY_FOLLOW_CALLER_SAMPLING),
                v.map(Settings.OBSERVABILITY_OTEL));
    }

    /**
     * Starts what does not depend on each other at once: the accounts database (opened and migrated on a
     * worker thread), the catalogue (read on the calling thread meanwhile), the TLS files' check and the Redis
     * probe. Then the accounts' Redis connections, the transcription tasks, and last the verticles, so that the
     * gateway listens only once everything a request may need is ready. The circuit breakers take the configuration's
     * {@code routing.cooldown} (and a reload's).
     *
     * @param observability the metrics, tracing and access-log settings (docs/observability.md)
     * @param ticker        the clock the circuit breakers, the shared cooldowns and the shutdown's drain read (tests pass
     *                      one they advance)
     * @param accountsClock the clock of the accounts (key expiries and rotations, budget periods) and of the Redis rate
     *                      limiter's buckets, which refill only as it moves (tests pass one they advance; the system's:
     *                      Redis's own clock)
     */
    public static Future<Gateway> start(Vertx vertx, GatewayConfig config, int instances, ObservabilityConfig observability,
                                        Ticker ticker, InstantSource accountsClock) {
        // the secrets the gateway holds never reach a log line or an error body, whatever quotes them
        config.secrets().forEach(Redaction::register);
        Telemetry telemetry = Telemetry.start(observability, System::getenv);
        AccountsConfig accountsConfig = new AccountsConfig(config.databaseUrl(), config.redisUrl(), config.masterKey(), null,
                config.defaultMaxConcurrent(), config.ledgerJournalDir(), config.settings().flag(Settings.ACCOUNTS_ALERTS_ALLOW_PRIVATE),
                config.ledgerJournalKeep(), RedisSettings.of(config.settings()));
        Future<Database> database = Accounts.openDatabase(vertx, accountsConfig);
        Future<Void> tls = tlsUsable(vertx, config);
        Future<Void> redis = redisReachable(vertx, config.redisUrl(), accountsConfig.redisSettings());
        int port = config.port() == 0 ? FreePort.pick() : config.port();
        GatewayConfig bound = config.withPort(port);
        CircuitBreakers breakers = new CircuitBreakers(ticker);
        // the clouds' credentials: one cache per identity for the whole gateway (docs/clouds.md, "Credentials")
        CloudAuth cloudAuth = new CloudAuth(vertx, InstantSource.system());
        Catalogue catalogue;
        RoutingTable table;
        try {
            catalogue = Catalogue.load(config);
            table = new RoutingTable(Routes.build(bound, catalogue, breakers));
            // the clouds' credentials fetched now: a source that cannot give them shows before the first call
            cloudAuth.warm(table.current().all().values().stream().flatMap(List::stream).map(Deployment::endpoint).toList());
        } catch (IllegalArgumentException e) {
            database.onSuccess(Database::close);
            throw config.settings().substitutions().hide(e);
        } catch (RuntimeException e) {
            database.onSuccess(Database::close);
            throw e;
        }
        ConfigReload reload = new ConfigReload(vertx, ConfigLoader.fromSystemEnv(), table, breakers);
        // billed at the price in force when the call is recorded (a deployment's own, else its model's): a reload
        // re-prices the next calls
        PriceBook prices = RoutePrices.inForce(table::current);
        BodyBudget bodies = new BodyBudget(config.limits().bufferedBodyBudget());
        ConnectionGuard connections = new ConnectionGuard(config.limits());
        CallsInFlight inFlight = new CallsInFlight();
        int drainSeconds = config.settings().integer(Settings.SERVER_DRAIN_SECONDS);
        Drain drain = new Drain(vertx, ticker, drainSeconds, inFlight);
        AtomicReference<List<Route>> routes = new AtomicReference<>();
        Future<Database> ready = Future.join(tls, redis, database).transform(all -> {
            // the first failure in this order is the one reported: a bad TLS file or an unreachable Redis is named
            // as such, whatever the database did meanwhile
            Throwable failure = tls.failed() ? tls.cause() : redis.failed() ? redis.cause()
                    : database.failed() ? accountsFailure(config, database.cause()) : null;
            if (failure == null) return database;
            database.onSuccess(Database::close);
            return Future.failedFuture(failure);
        });
        Future<Gateway> started = ready
                .compose(db -> Accounts.open(vertx, accountsConfig, prices, id -> table.current().catalogue().aliasesOf(id), db, accountsClock)
                        .recover(e -> Future.failedFuture(accountsFailure(config, e))))
                .compose(accounts -> TranscriptionTasks.start(vertx, table, accounts, breakers, cloudAuth)
                        .andThen(tasks -> reload.attach(accounts.admin()))
                        .compose(tasks -> SharedServices.open(vertx, accounts.database(), accountsConfig.redisUrl(),
                                accountsConfig.redisSettings(), accountsConfig.redisKeyPrefix(), tasks)).compose(services -> {
                    HealthEndpoints health = new HealthEndpoints(vertx, bound, accounts, breakers, table, telemetry, drain);
                    boolean ownPort = observability.metricsPort() > 0;
                    Future<HttpServer> metricsServer = ownPort ? metricsServer(vertx, bound.host(), observability.metricsPort(), health)
                            : Future.succeededFuture(null);
                    // the identity section in force is the routing table's: a reload changes the trusted issuers at once
                    TokenCallers tokens = new TokenCallers(() -> table.current().config().routing().identity(), accounts.tokenUsers(),
                            new IdentityHttp(vertx), accounts.clock());
                    return metricsServer.compose(ms -> vertx.deployVerticle(() -> new GatewayVerticle(bound, table, reload, accounts,
                                            services, breakers, cloudAuth, bodies, connections, telemetry, health, !ownPort, routes, inFlight, drain,
                                            tokens),
                                    new DeploymentOptions().setInstances(instances))
                            .map(id -> {
                                reload.watch();
                                SharedCooldowns cooldowns = accountsConfig.redisUrl() == null ? null
                                        : SharedCooldowns.start(vertx, accountsConfig.redisUrl(), accountsConfig.redisSettings(),
                                                accountsConfig.redisKeyPrefix(), breakers,
                                                InstantSource.system());
                                return new Gateway(vertx, id, port, accounts, services, reload, cooldowns, telemetry, ms, routes, drain,
                                        drainSeconds);
                            })
                            .onFailure(e -> {
                                if (ms != null) ms.close();
                            }));
                }).onFailure(e -> accounts.close()))
                .onFailure(e -> telemetry.close());
        return started.timeout(STARTUP_TIMEOUT_SECONDS, TimeUnit.SECONDS).recover(e -> Future.failedFuture(
                e instanceof TimeoutException ? new StartupFailure("The gateway did not start within " + STARTUP_TIMEOUT_SECONDS
                        + " s (database " + StartupFailure.redact(config.databaseUrl()) + ", Redis "
                        + StartupFailure.redact(config.redisUrl()) + ").", e) : e));
    }

    private static Throwable accountsFailure(GatewayConfig config, Throwable e) {
        return e instanceof StartupFailure ? e : new StartupFailure("The accounts store could not be opened (database "
                + StartupFailure.redact(config.databaseUrl()) + ", set by " + Settings.ACCOUNTS_DATABASE_URL.name()
                + (config.redisUrl() == null ? "" : "; Redis " + StartupFailure.redact(config.redisUrl())) + "): "
                + StartupFailure.reason(e), e);
    }

    /** Loads the TLS certificate and key once, so that a bad file is reported naming its setting. */
    private static Future<Void> tlsUsable(Vertx vertx, GatewayConfig config) {
        if (config.tls() == null) return Future.succeededFuture();
        return vertx.executeBlocking(() -> GatewayVerticle.keyCert(config.tls()).getKeyManagerFactory(vertx))
                .<Void>mapEmpty()
                .recover(e -> Future.failedFuture(new StartupFailure("The TLS certificate or key (" + ServerTls.settings()
                        + ") could not be loaded: " + StartupFailure.reason(e), e)));
    }

    /**
     * Connects to Redis once before the accounts do, so that an unreachable Redis is reported as such
     * within {@link #REDIS_PROBE_SECONDS}, rather than as a failure somewhere in the accounts store.
     */
    private static Future<Void> redisReachable(Vertx vertx, String url, RedisSettings settings) {
        if (url == null) return Future.succeededFuture();
        Redis probe;
        try {
            probe = RedisClients.probe(vertx, url, settings, (int) TimeUnit.SECONDS.toMillis(REDIS_PROBE_SECONDS));
        } catch (RuntimeException e) {
            return Future.failedFuture(new StartupFailure("The Redis URL " + StartupFailure.redact(url)
                    + " (" + Settings.ACCOUNTS_REDIS_URL.name() + ") is not valid: " + StartupFailure.reason(e), e));
        }
        return probe.connect().compose(c -> c.send(Request.cmd(Command.PING)).eventually(c::close))
                .timeout(REDIS_PROBE_SECONDS, TimeUnit.SECONDS)
                .<Void>mapEmpty()
                .recover(e -> Future.failedFuture(new StartupFailure("Redis at " + StartupFailure.redact(url)
                        + " (" + Settings.ACCOUNTS_REDIS_URL.name() + ") is unreachable: " + StartupFailure.reason(e), e)))
                .eventually(probe::close);
    }

    /** {@code /health}, {@code /ready} and {@code /metrics} alone on the loopback or public port of the operator's choice. */
    private static Future<HttpServer> metricsServer(Vertx vertx, String host, int port, HealthEndpoints health) {
        return vertx.createHttpServer().requestHandler(GatewayRouter.metricsPort(vertx, health)).listen(port, host)
                .recover(e -> Future.failedFuture(new StartupFailure("The metrics port " + port
                        + " (" + Settings.OBSERVABILITY_METRICS_PORT.name() + ") could not be opened: " + StartupFailure.reason(e), e)));
    }

    public int port() {
        return port;
    }

    /** The gateway's metrics and tracer. */
    public Telemetry telemetry() {
        return telemetry;
    }

    public Accounts accounts() {
        return accounts;
    }

    /** The routes of the main port, as {@link GatewayRouter} mounted them. */
    List<Route> routes() {
        return routes.get();
    }

    /**
     * The most {@link #stop()} takes: {@code server.drain_seconds} and {@link #AFTER_DRAIN_SECONDS}, so that a supervisor
     * gives it that (docs/operations/shutdown-and-rollouts.md).
     */
    public long stopSeconds() {
        return drainSeconds + AFTER_DRAIN_SECONDS;
    }

    /**
     * Stops in an order that loses no usage record, and in bounded time even when Redis has stopped answering
     * (docs/operations/shutdown-and-rollouts.md): first the {@link Drain}, so that {@code /ready} answers 503 before
     * anything else changes and the calls in flight go on (up to {@code server.drain_seconds}, then streams end with
     * their error event); then close the port; stop the transcription tasks, which record usage too; wait for the
     * responses and owners being stored and close the owners' client (each bounded); write the ledger, then release
     * Redis (each close bounded) and the database. Called again, it returns the same shutdown.
     */
    public synchronized Future<Void> stop() {
        if (stopped != null) return stopped;
        Future<Void> drained = drain.start();
        reload.stop();
        stopped = drained
                // the deployments' cooldowns are still shared while calls run
                .andThen(v -> {
                    if (cooldowns != null) cooldowns.close();
                })
                .compose(v -> vertx.undeploy(deploymentId))
                .eventually(() -> metricsServer == null ? Future.succeededFuture() : metricsServer.close())
                .eventually(services.transcriptions()::close)
                .eventually(services::close)
                .eventually(accounts::close)
                // the spans still buffered are exported (bounded) on a worker thread
                .eventually(() -> vertx.executeBlocking(() -> {
                    telemetry.close();
                    return null;
                }));
        return stopped;
    }
}
