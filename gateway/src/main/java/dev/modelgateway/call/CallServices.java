package dev.modelgateway.call;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.routing.Routes;
import dev.modelgateway.routing.RoutingTable;
import dev.modelgateway.upstream.MediaFetcher;
import dev.modelgateway.upstream.Relay;


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
}
