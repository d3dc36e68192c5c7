package dev.modelgateway.call;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.upstream.MediaFetcher;
import dev.modelgateway.upstream.Relay;

/**
 * What endpoint handlers share within one event loop: catalogue, configuration, relay, metering and the
 * downloader of media URLs.
 */
public record CallServices(Catalogue catalogue, GatewayConfig config, Relay relay, Metering metering, MediaFetcher media) {
}
