package dev.modelgateway.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The operator-owned part of the configuration, applied again on a reload (docs/configuration.md, "Hot reload"):
 * providers beyond the four built-in ones, deployments per public model, the catalogue's additions and overrides,
 * and cooldowns.
 *
 * @param providers   providers by name (a built-in name replaces that built-in)
 * @param deployments public model id → its deployments; a model without an entry is served by its vendor's
 *                    built-in provider
 * @param catalogue   {@code {"models": {id: fields}, "aliases": {alias: id}}}: the configuration's catalogue entries,
 *                    in catalogue.yaml's own field names
 * @param file        the configuration file, watched for changes; null when the gateway started without one
 */
public record RoutingConfig(Map<String, Provider> providers, Map<String, List<DeploymentSpec>> deployments,
                            JsonNode catalogue, Cooldown cooldown, Path file) {
    public static final RoutingConfig NONE = new RoutingConfig(Map.of(), Map.of(), JsonNodeFactory.instance.objectNode(),
            Cooldown.DEFAULT, null);

    public RoutingConfig {
        providers = Map.copyOf(providers);
        deployments = Map.copyOf(deployments);
        if (catalogue == null) catalogue = JsonNodeFactory.instance.objectNode();
        if (cooldown == null) cooldown = Cooldown.DEFAULT;
    }

    public RoutingConfig withCooldown(Cooldown c) {
        return new RoutingConfig(providers, deployments, catalogue, c, file);
    }

    public RoutingConfig withFile(Path f) {
        return new RoutingConfig(providers, deployments, catalogue, cooldown, f);
    }
}
