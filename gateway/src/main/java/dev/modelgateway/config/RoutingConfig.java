package dev.modelgateway.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The operator-owned part of the configuration, applied again on a reload (docs/configuration.md, "Hot reload"):
 * providers beyond the four built-in ones, deployments per public model, the catalogue's additions and overrides,
 * cooldowns, and who may sign in or call with an identity provider's token ({@link IdentityConfig}).
 *
 * @param providers   providers by name (a built-in name replaces that built-in)
 * @param deployments public model id → its deployments; a model without an entry is served by its vendor's
 *                    built-in provider
 * @param catalogue   {@code {"models": {id: fields}, "aliases": {alias: id}}}: the configuration's catalogue entries,
 *                    in catalogue.yaml's own field names
 * @param file        the configuration file, watched for changes; null when the gateway started without one
 * @param identity    the {@code identity} section: sign-in providers, role mappings, trusted issuers, caller mappings
 */
public record RoutingConfig(Map<String, Provider> providers, Map<String, List<DeploymentSpec>> deployments,
                            JsonNode catalogue, Cooldown cooldown, Path file, IdentityConfig identity) {
    public static final RoutingConfig NONE = new RoutingConfig(Map.of(), Map.of(), JsonNodeFactory.instance.objectNode(),
            Cooldown.DEFAULT, null, IdentityConfig.NONE);

    public RoutingConfig(Map<String, Provider> providers, Map<String, List<DeploymentSpec>> deployments, JsonNode catalogue,
                         Cooldown cooldown, Path file) {
        this(providers, deployments, catalogue, cooldown, file, IdentityConfig.NONE);
    }

    public RoutingConfig {
        providers = Map.copyOf(providers);
        deployments = Map.copyOf(deployments);
        if (catalogue == null) catalogue = JsonNodeFactory.instance.objectNode();
        if (cooldown == null) cooldown = Cooldown.DEFAULT;
        if (identity == null) identity = IdentityConfig.NONE;
    }

    public RoutingConfig withCooldown(Cooldown c) {
        return new RoutingConfig(providers, deployments, catalogue, c, file, identity);
    }

    public RoutingConfig withFile(Path f) {
        return new RoutingConfig(providers, deployments, catalogue, cooldown, f, identity);
    }

    public RoutingConfig withIdentity(IdentityConfig i) {
        return new RoutingConfig(providers, deployments, catalogue, cooldown, file, i);
    }
}
