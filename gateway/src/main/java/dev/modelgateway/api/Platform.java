package dev.modelgateway.api;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.relay.Relay;

/** What endpoint handlers share within one event loop: catalogue, configuration, relay and metering. */
public record Platform(Catalogue catalogue, GatewayConfig config, Relay relay, Metering metering) {
}
