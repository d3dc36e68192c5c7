package dev.modelgateway.server;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.Metering;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.ServerTls;
import dev.modelgateway.endpoint.realtime.RealtimeEndpoint;
import dev.modelgateway.http.Caller;
import dev.modelgateway.observability.Telemetry;
import dev.modelgateway.routing.CircuitBreakers;
import dev.modelgateway.routing.RoutePrices;
import dev.modelgateway.identity.TokenCallers;
import dev.modelgateway.routing.RoutingTable;
import dev.modelgateway.services.SharedServices;
import dev.modelgateway.upstream.MediaFetcher;
import dev.modelgateway.upstream.Relay;
import dev.modelgateway.upstream.CallsInFlight;
import dev.modelgateway.upstream.CloudAuth;
import dev.modelgateway.upstream.VendorClients;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Route;
import io.vertx.ext.web.Router;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One event loop's share of the gateway: its own HTTP server (the port is shared across instances by
 * Vert.x) and its own upstream connection pools. The routes in force, accounts and circuit breakers are shared.
 */
final class GatewayVerticle extends VerticleBase {
    /** What is left once the drain is over: idle keep-alive connections, a request answered 503 as the port closes. */
    static final long SHUTDOWN_GRACE_SECONDS = 1;
    /** Vert.x's default TLS handshake timeout: the longest a connection may take to finish its handshake. */
    static final long TLS_HANDSHAKE_SECONDS = 10;

    private final GatewayConfig config;
    private final RoutingTable table;
    private final ConfigReload reload;
    private final Accounts accounts;
    private final SharedServices services;
    private final CircuitBreakers breakers;
    private final CloudAuth cloudAuth;
    private final BodyBudget bodies;
    private final ConnectionGuard connections;
    private final Telemetry telemetry;
    private final HealthEndpoints health;
    /** Whether this port serves /ready and /metrics (no separate metrics port). */
    private final boolean servesMetrics;
    /** The routes served, as the first verticle's router holds them (every verticle's are the same). */
    private final AtomicReference<List<Route>> routes;
    private final CallsInFlight inFlight;
    private final Drain drain;
    /** Callers with an identity provider's token, shared by every event loop (one key cache, one user cache). */
    private final TokenCallers tokens;
    private long lagTimer = -1;
    private VendorClients clients;
    private MediaFetcher media;
    private HttpServer server;

    GatewayVerticle(GatewayConfig config, RoutingTable table, ConfigReload reload, Accounts accounts, SharedServices services,
                    CircuitBreakers breakers, CloudAuth cloudAuth, BodyBudget bodies, ConnectionGuard connections, Telemetry telemetry,
                    HealthEndpoints health, boolean servesMetrics, AtomicReference<List<Route>> routes, CallsInFlight inFlight,
                    Drain drain, TokenCallers tokens) {
        this.tokens = tokens;
        this.routes = routes;
        this.inFlight = inFlight;
        this.drain = drain;
        this.telemetry = telemetry;
        this.health = health;
        this.servesMetrics = servesMetrics;
        this.bodies = bodies;
        this.connections = connections;
        this.config = config;
        this.table = table;
        this.reload = reload;
        this.accounts = accounts;
        this.services = services;
        this.breakers = breakers;
        this.cloudAuth = cloudAuth;
    }

    @Override
    public Future<?> start() {
        clients = new VendorClients(vertx, cloudAuth);
        media = new MediaFetcher(vertx, config.media());
        health.served(clients);
        lagTimer = telemetry.watchEventLoop(vertx, Thread.currentThread().getName());
        // the cost metric prices a call as the ledger does: at the catalogue in force when it is recorded
        CallServices platform = new CallServices(table, new Relay(clients, breakers, config.limits().vendorAnswers(), inFlight),
                new Metering(accounts, RoutePrices.inForce(table::current)), media);
        Authenticator authenticator = new Credentials(accounts, tokens, () -> table.current().config().routing().identity());
        HttpServerOptions options = new HttpServerOptions()
                .setHost(config.host())
                .setPort(config.port())
                .setTcpNoDelay(true)
                // Cleartext HTTP/2 off (HTTP/2 is offered over TLS only): with it, Vert.x waits for a connection's first bytes (to tell h2c from
                // HTTP/1.x) before it hands the connection to the connection handler, so a client that connects
                // and sends nothing would escape the connection caps and the request-head timeout.
                .setHttp2ClearTextEnabled(false)
                // nothing read or written for this long: above the longest call deadline, and SSE writes reset it
                .setIdleTimeout((int) config.limits().idleTimeoutSeconds())
                .setIdleTimeoutUnit(TimeUnit.SECONDS)
                .setCompressionSupported(false)
                .setWebSocketSubProtocols(RealtimeEndpoint.SUBPROTOCOLS)
                .setMaxWebSocketFrameSize(RealtimeEndpoint.MAX_FRAME_BYTES)
                .setMaxWebSocketMessageSize(RealtimeEndpoint.MAX_FRAME_BYTES);
        if (config.tls() != null) serveTls(options, config);
        Router router = GatewayRouter.create(vertx, platform, authenticator, accounts, services, config.limits(), bodies,
                reload, table, telemetry, servesMetrics ? health : null, cloudAuth::problem, drain);
        routes.compareAndSet(null, router.getRoutes());
        ConnectionGuard.OnLoop guard = connections.new OnLoop(vertx);
        GatewayRouter.guard(router, guard);
        server = vertx.createHttpServer(options)
                .connectionHandler(guard::connected)
                .requestHandler(router);
        return server.listen();
    }

    /**
     * TLS on the same listener, HTTP/2 or HTTP/1.1 by ALPN. The connection handler (caps, head timer) runs once
     * the handshake is done, so the handshake itself is bounded: by the request-head timeout, or Vert.x's
     * default of 10 s when that is off, whichever is shorter.
     */
    static void serveTls(HttpServerOptions options, GatewayConfig config) {
        long headSeconds = config.limits().requestHeadTimeoutSeconds();
        options.setSsl(true)
                .setKeyCertOptions(keyCert(config.tls()))
                .setUseAlpn(true)
                .setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1))
                .setSslHandshakeTimeout(headSeconds > 0 ? Math.min(headSeconds, TLS_HANDSHAKE_SECONDS) : TLS_HANDSHAKE_SECONDS)
                .setSslHandshakeTimeoutUnit(TimeUnit.SECONDS);
    }

    static PemKeyCertOptions keyCert(ServerTls tls) {
        return new PemKeyCertOptions().setCertPath(tls.certFile().toString()).setKeyPath(tls.keyFile().toString());
    }

    /**
     * Closes the port once the gateway's {@link Drain} is over, with a short grace; without an explicit bound, Vert.x
     * would wait for every idle keep-alive connection of every client to go away.
     */
    @Override
    public Future<?> stop() {
        vertx.cancelTimer(lagTimer);
        health.stopped(clients);
        return server.shutdown(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS).eventually(clients::close).eventually(media::close);
    }
}
