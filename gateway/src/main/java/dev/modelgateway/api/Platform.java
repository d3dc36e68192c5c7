package dev.modelgateway.api;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.relay.Relay;
import dev.modelgateway.upstream.MediaFetcher;

/**
 * What endpoint handlers share within one event loop: catalogue, configuration, relay, metering and the
 * downloader of media URLs.
 */
public record Platform(Catalogue catalogue, GatewayConfig config, Relay relay, Metering metering, MediaFetcher media) {
}
