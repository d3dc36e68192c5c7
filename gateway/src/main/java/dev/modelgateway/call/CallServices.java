package dev.modelgateway.call;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.routing.Deployment;
import dev.modelgateway.routing.Routes;
import dev.modelgateway.routing.RoutingTable;
import dev.modelgateway.upstream.MediaFetcher;
import dev.modelgateway.upstream.Relay;

import java.util.Set;

/**
 * What endpoint handlers share within one event loop: the routes in force (catalogue, configuration, deployments:
 * read afresh on each use, so that a reload applies to the next request), relay, metering and the downloader of
 * media URLs.
 */
public final class CallServices {
    private final RoutingTable table;
    private final Relay relay;
    private final Metering metering;
    private final MediaFetcher media;

    public CallServices(RoutingTable table, Relay relay, Metering metering, MediaFetcher media) {
        this.table = table;
        this.relay = relay;
        this.metering = metering;
        this.media = media;
    }

    /** Fixed routes: the catalogue's models on the configuration's providers. */
    public CallServices(Catalogue catalogue, GatewayConfig config, Relay relay, Metering metering, MediaFetcher media) {
        this(new RoutingTable(Routes.build(config, catalogue, relay.breakers())), relay, metering, media);
    }

    public Catalogue catalogue() { return table.current().catalogue(); }
    public GatewayConfig config() { return table.current().config(); }
    public Routes routes() { return table.current(); }
    public RoutingTable table() { return table; }
    public Relay relay() { return relay; }
    public Metering metering() { return metering; }
    public MediaFetcher media() { return media; }

    /** A model as served by one deployment, and where its request goes. */
    public record Routed(ModelEntry model, VendorEndpoint endpoint) {
    }

    /**
     * The deployment for a call without retries (embeddings, images, audio): chosen by weight among those ready, or
     * the one recovering first (its breaker then refuses the call with a retry hint).
     */
    public Routed route(ModelEntry model) {
        Deployment d = routes().choose(model, Set.of()).deployment();
        return new Routed(model.withUpstream(d.upstreamModel()), d.endpoint());
    }

    /**
     * For the endpoints that carry the model through their code (images, audio): the model under the upstream id of
     * the deployment chosen for it; {@link #endpointOf} then finds that deployment's endpoint.
     */
    public ModelEntry served(ModelEntry model) {
        return route(model).model();
    }

    /** The endpoint of the ready deployment serving {@code served} under its upstream id (the first such). */
    public VendorEndpoint endpointOf(ModelEntry served) {
        Deployment first = null;
        for (Deployment d : routes().deployments(served)) {
            if (!d.upstreamModel().equals(served.upstreamId())) continue;
            if (routes().breakers().of(d.endpoint()).readyInMs() == 0) return d.endpoint();
            if (first == null) first = d;
        }
        return first != null ? first.endpoint() : config().vendor(served.vendor());
    }
}
