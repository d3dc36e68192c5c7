package dev.modelgateway.config;

import com.fasterxml.jackson.databind.JsonNode;

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
 * @param api      which of the provider's APIs it calls ({@code api: invoke | converse} on Bedrock); null: the default,
 *                 {@link #apiFor}
 * @param capabilities what its model can do, as declared (docs/clouds.md, "Capabilities")
 * @param price    its own price as written ({@code price: {input: ..., output: ...}}; null: the public model's), read
 *                 by the one reader of a price, {@code catalogue/ModelPrice.parse}, when the routes are built (the
 *                 configuration imports nothing of the catalogue): docs/clouds.md, "Prices"
 */
public record DeploymentSpec(String provider, String model, int weight, String region, List<String> tags,
                             DeploymentApi api, Capabilities capabilities, JsonNode price) {
    public DeploymentSpec {
        tags = tags == null ? List.of() : List.copyOf(tags);
        if (capabilities == null) capabilities = Capabilities.NATIVE;
        if (price != null) price = price.deepCopy();
    }

    /**
     * The API it calls: as configured, else on Bedrock Invoke for vendor A's models (their own body, lossless) and
     * Converse for the others, else the provider's one API.
     */
    public DeploymentApi apiFor(ProviderType type, Vendor model) {
        if (api != null) return api;
        return type == ProviderType.BEDROCK && model != Vendor.ANTHROPIC ? DeploymentApi.CONVERSE : DeploymentApi.NATIVE;
    }

    /** A deployment on a vendor's own API. */
    public DeploymentSpec(String provider, String model, int weight, String region, List<String> tags) {
        this(provider, model, weight, region, tags, null, null, null);
    }
}
