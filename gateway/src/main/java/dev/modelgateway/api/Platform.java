package dev.modelgateway.api;

import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.relay.NativeRelay;

/** What endpoint handlers share within one event loop: the catalogue, the configuration, the relay. */
public record Platform(Catalogue catalogue, GatewayConfig config, NativeRelay relay) {
}
