package dev.modelgateway.upstream;

import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.config.VendorHttp;
import dev.modelgateway.config.VendorPool;
import dev.modelgateway.config.ProviderType;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PemTrustOptions;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Pooled HTTP clients to the vendors, one pool per vendor deployment and event loop (each gateway verticle owns
 * one instance), so that a request and its upstream call stay on the same thread, and each deployment gets the
 * connections its {@code vendors.<id>.max_connections} and {@code max_queued} allow.
 */
public final class VendorClients {
    private final Vertx vertx;
    private final CloudAuth cloudAuth;
    /** Base URLs parsed once: setAbsoluteURI would parse a java.net.URL on every request. */
    private final Map<String, Origin> origins = new ConcurrentHashMap<>();
    private final Map<PoolKey, UpstreamPool> pools = new ConcurrentHashMap<>();

    /** @param cloudAuth the clouds' credentials, one for the whole gateway (every event loop's clients share it) */
    public VendorClients(Vertx vertx, CloudAuth cloudAuth) {
        this.vertx = vertx;
        this.cloudAuth = cloudAuth;
    }

    /** With credentials of its own for the clouds (tests and tools that make one client). */
    public VendorClients(Vertx vertx) {
        this(vertx, new CloudAuth(vertx, java.time.Clock.systemUTC()));
    }

    /**
     * Opens the request and hands it to {@code onRequest} before sending, so the caller can cancel it
     * (a client that disconnects must not leave the upstream call running). The call holds its place in the
     * deployment's pool until {@code over} completes. Fails with 503 {@code gateway_overloaded} when the pool is
     * saturated ({@link UpstreamPool}).
     */
    public Future<HttpClientResponse> send(VendorRequest r, Consumer<HttpClientRequest> onRequest, Future<?> over) {
        VendorEndpoint endpoint = r.endpoint();
        if (!endpoint.configured()) return Future.failedFuture(notConfigured(endpoint));
        Origin origin = origins.computeIfAbsent(endpoint.baseUrl(), Origin::of);
        String query = endpoint.query();
        String uri = origin.basePath() + endpoint.pathPrefix() + r.path()
                + (query.isEmpty() ? "" : (r.path().indexOf('?') >= 0 ? "&" : "?") + query);
        RequestOptions options = new RequestOptions()
                .setMethod(r.method())
                .setHost(origin.host())
                .setPort(origin.port())
                .setSsl(origin.ssl())
                .setURI(uri)
                .setConnectTimeout(Math.max(1, Math.min(endpoint.connectTimeoutMs(), r.deadline().remainingMs())))
                .setIdleTimeout(r.deadline().idleMs());
        if (endpoint.cloud() == null) return send(r, origin, uri, options, null, onRequest, over);
        // a cloud's credential first, before a connection is taken: fetching it may take a round trip to STS or a
        // token endpoint, beside the event loop
        return cloudAuth.credential(endpoint).compose(credential -> send(r, origin, uri, options, credential, onRequest, over)
                .compose(resp -> {
                    // Vertex refused the token (expired or revoked early): one forced refresh, shared, and one retry
                    if (resp.statusCode() != 401 || !(credential instanceof CloudAuth.Credential.Bearer b) || b.from() == null) {
                        return Future.succeededFuture(resp);
                    }
                    return resp.body().compose(ignored -> cloudAuth.afterRejection(b))
                            .compose(fresh -> send(r, origin, uri, options, fresh, onRequest, over));
                }));
    }

    private Future<HttpClientResponse> send(VendorRequest r, Origin origin, String uri, RequestOptions options,
                                            CloudAuth.Credential credential, Consumer<HttpClientRequest> onRequest, Future<?> over) {
        VendorEndpoint endpoint = r.endpoint();
        return pool(endpoint).request(options, over).compose(req -> {
            req.headers().addAll(r.headers());
            VendorAuth.apply(endpoint, req.headers());
            if (credential != null) {
                cloudAuth.apply(endpoint, credential, r.method().name(), origin.uri(uri), req.headers(), r.body());
            }
            onRequest.accept(req);
            // a GET or DELETE has no body
            return r.body() == null ? req.send() : BodyWriter.send(req, r.body());
        });
    }

    /** The clouds' credentials this gateway holds: their health for the admin API and routing. */
    public CloudAuth cloudAuth() {
        return cloudAuth;
    }

    /** Calls holding or waiting for a connection, by provider, on this event loop. */
    public Map<String, Integer> callsByProvider() {
        Map<String, Integer> out = new HashMap<>();
        // the settings and base URLs (before and after a reload) apart, pools of one provider add up
        pools.forEach((k, p) -> out.merge(k.provider(), p.calls(), Integer::sum));
        return out;
    }

    /** A missing key: a 503 the official SDKs do not retry, naming the setting. */
    private static GatewayException notConfigured(VendorEndpoint endpoint) {
        Vendor v = endpoint.vendor();
        boolean builtIn = endpoint.provider().equals(v.id()) && endpoint.type() == ProviderType.of(v);
        String how = builtIn ? "set " + v.keyEnv() + " (or vendors." + v.id() + ".api_key in the configuration file)."
                : "set providers." + endpoint.provider() + ".api_key (or keys) in the configuration file.";
        String what = builtIn ? "Vendor '" + v.id() + "'" : "Provider '" + endpoint.provider() + "'";
        return new GatewayException.NotConfigured(what + " is not configured on this gateway: " + how,
                Map.of("x-should-retry", "false"));
    }

    /**
     * The pool on this event loop of the upstream at the endpoint's base URL, made on its first call: one per provider,
     * so that the deployments and keys of a provider share connections; a reload that changes a provider's pool
     * settings gets a new pool, and the old one serves the calls still on it.
     */
    UpstreamPool pool(VendorEndpoint endpoint) {
        return pools.computeIfAbsent(new PoolKey(endpoint.provider(), endpoint.baseUrl(), endpoint.pool()), k -> {
            VendorPool limits = endpoint.pool();
            HttpClientOptions options = new HttpClientOptions()
                    .setKeepAlive(true)
                    .setTcpNoDelay(true)
                    .setConnectTimeout(endpoint.connectTimeoutMs())
                    .setMaxInitialLineLength(16 * 1024)
                    .setDecompressionSupported(true)
                    .setTrustAll(false);
            if (limits.caFile() != null) options.setTrustOptions(new PemTrustOptions().addCertPath(limits.caFile()));
            boolean ssl = origins.computeIfAbsent(endpoint.baseUrl(), Origin::of).ssl();
            if (limits.http() == VendorHttp.HTTP2 || (limits.http() == VendorHttp.AUTO && ssl)) {
                // Over TLS, ALPN offers h2 then http/1.1, so a vendor without HTTP/2 still gets HTTP/1.1; in
                // cleartext, HTTP/2 is asked for only when configured (prior knowledge: no upgrade round trip).
                options.setProtocolVersion(HttpVersion.HTTP_2).setUseAlpn(ssl).setHttp2ClearTextUpgrade(false)
                        .setHttp2MultiplexingLimit(VendorPool.STREAMS_PER_CONNECTION);
            }
            // a bounded queue: each waiting call holds its request body, so an unbounded one would hold memory without bound
            PoolOptions pool = new PoolOptions().setHttp1MaxSize(limits.maxConnections())
                    .setHttp2MaxSize(limits.http2Connections())
                    .setMaxWaitQueueSize(limits.maxQueued());
            return new UpstreamPool(vertx.createHttpClient(options, pool), limits, endpoint.provider());
        });
    }

    /**
     * What makes a pool: a record, hashed from its fields, rather than a string concatenated per call (the pool's
     * settings' {@code toString} was 0.3 % of the event loop's samples at one connection).
     */
    private record PoolKey(String provider, String baseUrl, VendorPool settings) {
    }

    /** Scheme, host and port of a vendor base URL, and its path, which every request path extends. */
    private record Origin(String host, int port, boolean ssl, String basePath) {
        /** The URL a request to {@code path} goes to, as sent (what SigV4 signs). */
        URI uri(String path) {
            return URI.create((ssl ? "https://" : "http://") + host + (port == (ssl ? 443 : 80) ? "" : ":" + port) + path);
        }

        static Origin of(String baseUrl) {
            URI uri = URI.create(baseUrl);
            boolean ssl = "https".equalsIgnoreCase(uri.getScheme());
            int port = uri.getPort() != -1 ? uri.getPort() : ssl ? 443 : 80;
            return new Origin(uri.getHost(), port, ssl, uri.getRawPath() == null ? "" : uri.getRawPath());
        }
    }

    /** Closes the pools; calls still running get one second before their connections are closed. */
    public Future<Void> close() {
        return Future.all(pools.values().stream().map(UpstreamPool::close).toList()).mapEmpty();
    }
}
