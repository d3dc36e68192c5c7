package dev.modelgateway.config;

import java.util.List;

/**
 * One way of serving a public model, as the operator wrote it under {@code models.<id>.deployments}
 * (docs/configuration.md, "Deployments").
 *
 * @param provider the provider's name
 * @param model    the id the provider knows the model by (an Azure deployment's name)
 * @param weight   its share of the model's traffic among the healthy deployments
 * @param region   informational: shown by the admin API and the ledger's deployment id
 * @param tags     informational labels
 */
public record DeploymentSpec(String provider, String model, int weight, String region, List<String> tags) {
    public DeploymentSpec {
        tags = tags == null ? List.of() : List.copyOf(tags);
    }
}
