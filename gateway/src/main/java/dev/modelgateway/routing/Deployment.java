package dev.modelgateway.routing;

import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.config.VendorEndpoint;

import java.util.List;

/**
 * One way of serving a public model: a provider's key and the provider's id of the model (docs/configuration.md,
 * "Deployments"). A deployment configured on a provider with several keys is one deployment per key, each with its
 * share of the weight.
 *
 * @param id            {@code provider/upstream-model}, with {@code #n} for the n-th key of a provider with several:
 *                      the unit of health (breaker, cooldown) and what the admin API shows
 * @param endpoint      where the calls go, tracked under {@code id}
 * @param upstreamModel the id sent to the provider (an Azure deployment's name)
 * @param weight        its share of the model's traffic among the deployments ready to take it
 * @param price         its own price, which the calls it serves are billed at (regional, global and provisioned
 *                      throughput differ: docs/clouds.md, "Prices"); null: the public model's
 */
public record Deployment(String id, VendorEndpoint endpoint, String upstreamModel, double weight, String region,
                         List<String> tags, ModelPrice price) {
}
