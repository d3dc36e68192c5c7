package dev.modelgateway.server;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.config.GatewayConfig;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Starts and stops a gateway on a Vert.x instance: one verticle per event loop. */
public final class Gateway {
    private final Vertx vertx;
    private final String deploymentId;
    private final int port;

    private Gateway(Vertx vertx, String deploymentId, int port) {
        this.vertx = vertx;
        this.deploymentId = deploymentId;
        this.port = port;
    }

    /**
     * @param instances event loops to serve on; a fixed port is required when more than one, since an
     *                  ephemeral port (0) would differ per instance
     */
    public static Future<Gateway> start(Vertx vertx, GatewayConfig config, Authenticator authenticator, int instances) {
        Catalogue catalogue = Catalogue.loadDefault(config.upstreamOverrides());
        int port = config.port() == 0 ? FreePort.pick() : config.port();
        GatewayConfig bound = config.withPort(port);
        return vertx.deployVerticle(() -> new GatewayVerticle(bound, catalogue, authenticator),
                        new DeploymentOptions().setInstances(instances))
                .map(id -> new Gateway(vertx, id, port));
    }

    public int port() {
        return port;
    }

    public Future<Void> stop() {
        return vertx.undeploy(deploymentId);
    }
}
