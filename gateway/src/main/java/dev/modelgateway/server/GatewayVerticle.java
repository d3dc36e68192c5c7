package dev.modelgateway.server;

import dev.modelgateway.api.Platform;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.relay.NativeRelay;
import dev.modelgateway.upstream.VendorClients;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServerOptions;

/**
 * One event loop's share of the gateway: its own HTTP server (the port is shared across instances by
 * Vert.x) and its own upstream connection pools.
 */
final class GatewayVerticle extends VerticleBase {
    private final GatewayConfig config;
    private final Catalogue catalogue;
    private final Authenticator authenticator;
    private VendorClients clients;

    GatewayVerticle(GatewayConfig config, Catalogue catalogue, Authenticator authenticator) {
        this.config = config;
        this.catalogue = catalogue;
        this.authenticator = authenticator;
    }

    @Override
    public Future<?> start() {
        clients = new VendorClients(vertx);
        Platform platform = new Platform(catalogue, config, new NativeRelay(clients));
        HttpServerOptions options = new HttpServerOptions()
                .setHost(config.host())
                .setPort(config.port())
                .setTcpNoDelay(true)
                .setCompressionSupported(false);
        return vertx.createHttpServer(options)
                .requestHandler(GatewayRouter.create(vertx, platform, authenticator))
                .listen();
    }

    @Override
    public Future<?> stop() {
        return clients.close();
    }
}
