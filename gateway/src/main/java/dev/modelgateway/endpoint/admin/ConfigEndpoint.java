package dev.modelgateway.endpoint.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.config.CloudAccount;
import dev.modelgateway.config.ConfigValues;
import dev.modelgateway.config.Cooldown;
import dev.modelgateway.config.GatewayConfig;
import dev.modelgateway.config.Provider;
import dev.modelgateway.config.Setting;
import dev.modelgateway.config.Settings;
import dev.modelgateway.config.ShownUrl;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.access.Actor;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.access.Actor;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.CircuitBreaker;
import dev.modelgateway.routing.Deployment;
import dev.modelgateway.routing.Routes;
import dev.modelgateway.routing.RoutingTable;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * {@code POST /api/v1/admin/reload} and {@code GET /api/v1/admin/config} (docs/configuration.md, "Hot reload"):
 * apply the configuration file again, and show the configuration in force with every secret masked: each
 * deployment's state, and every declared setting ({@code Settings}).
 */
public final class ConfigEndpoint {
    /** By {@link CircuitBreaker#stateCode()}. */
    private static final String[] BREAKER_STATES = {"closed", "half_open", "open"};
    /**
     * What a reload did: the models and deployments now in force, and the settings the file changed that only a restart
     * applies ({@link Setting#reloadable()}).
     */
    public record Applied(int models, int deployments, List<String> restartNeeded) {
    }

    /**
     * Reads the configuration file again and applies it, or fails with the reason (the running configuration stays); an
     * applied reload is an audit entry by {@code actor}.
     */
    public interface Reload {
        Future<Applied> reload(Actor actor);
    }

    private final Reload reload;
    private final RoutingTable table;
    private final Function<VendorEndpoint, String> credentialProblems;

    /** @param credentialProblems why a cloud deployment's credentials cannot be had now, or null (upstream/CloudAuth) */
    public ConfigEndpoint(Reload reload, RoutingTable table, Function<VendorEndpoint, String> credentialProblems) {
        this.credentialProblems = credentialProblems;
        this.reload = reload;
        this.table = table;
    }

    public void reload(RoutingContext ctx) {
        reload.reload(AdminReplies.actor(ctx)).onComplete(ar -> {
            if (ar.failed()) {
                Exchange.fail(ctx, GatewayException.of(ErrorKind.INVALID_REQUEST, "The configuration was not applied, the running"
                        + " one stays: " + ar.cause().getMessage()).withCode("invalid_configuration"));
                return;
            }
            ObjectNode out = Json.MAPPER.createObjectNode().put("status", "applied")
                    .put("models", ar.result().models()).put("deployments", ar.result().deployments());
            ar.result().restartNeeded().forEach(out.putArray("restart_needed")::add);
            ctx.response().putHeader("content-type", "application/json").end(Json.toBuffer(out));
        });
    }

    public void show(RoutingContext ctx) {
        Routes routes = table.current();
        GatewayConfig config = routes.config();
        ObjectNode out = Json.MAPPER.createObjectNode();
        out.put("file", config.routing().file() == null ? null : config.routing().file().toString());
        ObjectNode providers = out.putObject("providers");
        config.providers().forEach((name, p) -> providers.set(name, provider(p)));
        ObjectNode models = out.putObject("models");
        for (ModelEntry m : routes.catalogue().models()) {
            ObjectNode n = models.putObject(m.id());
            n.put("vendor", m.vendor().id()).put("kind", m.kind().name().toLowerCase()).put("status", m.status().name().toLowerCase());
            n.put("context_window", m.contextWindow()).put("max_output_tokens", m.maxOutputTokens());
            n.set("price", price(m.price()));
            ArrayNode ds = n.putArray("deployments");
            for (Deployment d : routes.deployments(m)) {
                CircuitBreaker b = routes.breakers().of(d.endpoint());
                long wait = b.readyInMs();
                ObjectNode dn = ds.addObject().put("id", d.id()).put("provider", d.endpoint().provider()).put("model", d.upstreamModel())
                        .put("weight", d.weight()).put("region", d.region());
                d.tags().forEach(dn.putArray("tags")::add);
                if (d.price() != null) dn.set("price", price(d.price())); // its own, which its calls are billed at
                // a deployment whose credentials cannot be had is not ready, whatever its breaker says (docs/clouds.md)
                String credentials = credentialProblems.apply(d.endpoint());
                if (credentials != null) dn.put("credentials_problem", credentials);
                dn.put("state", credentials != null ? "credentials_failing" : wait == 0 ? "ready" : "cooling").put("ready_in_ms", wait)
                        .put("breaker", BREAKER_STATES[b.stateCode()])
                        .put("cooling_until", wait == 0 ? null : Instant.now().plusMillis(wait).toString());
            }
        }
        ObjectNode aliases = out.putObject("aliases");
        routes.catalogue().aliases().forEach(aliases::put);
        Cooldown c = config.routing().cooldown();
        out.putObject("cooldown").put("failures", c.failures()).put("shared_failures", c.sharedFailures())
                .put("seconds", c.first().toMillis() / 1000.0).put("max_seconds", c.max().toMillis() / 1000.0);
        out.set("settings", settings(config.settings()));
        // any field may have come from a ${VAR} (a region, a tag): shown as the reference, never as the value
        ctx.response().putHeader("content-type", "application/json").end(Json.toBuffer(config.settings().substitutions().hideIn(out)));
    }

    /**
     * A model's prices: null for a model without one (refused at admission), {@code "unknown"} for
     * {@code price: unknown}, else each token class (null when the class has none).
     */
    private static JsonNode price(ModelPrice p) {
        if (p == null) return NullNode.getInstance();
        if (p.unknown()) return TextNode.valueOf("unknown");
        return Json.MAPPER.createObjectNode().put("input", p.input()).put("output", p.output()).put("cache_read", p.cacheRead())
                .put("cache_write_5m", p.cacheWrite5m()).put("cache_write_1h", p.cacheWrite1h());
    }

    /** Every declared setting's value in force (secrets masked), its variable, and whether a reload applies it. */
    private static ObjectNode settings(ConfigValues values) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        for (Setting s : Settings.ALL) {
            ObjectNode n = out.putObject(s.inFile() ? s.path() : s.env());
            n.set("value", Json.MAPPER.valueToTree(values.shown(s)));
            n.put("env", s.env()).put("applied_by_reload", s.reloadable());
        }
        return out;
    }

    private static ObjectNode provider(Provider p) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("type", p.type().id()).put("base_url", ShownUrl.of(p.baseUrl())).put("enabled", p.enabled());
        ArrayNode keys = n.putArray("keys");
        for (Provider.Key k : p.keys()) keys.addObject().put("key", VendorEndpoint.mask(k.value())).put("weight", k.weight());
        ObjectNode headers = n.putObject("headers");
        // header values may be credentials too (a proxy's token): shown masked
        p.headers().forEach((h, v) -> headers.put(h, VendorEndpoint.mask(v)));
        if (p.apiVersion() != null) n.put("api_version", p.apiVersion());
        CloudAccount cloud = p.cloud();
        if (cloud != null) {
            // where the cloud's calls go and which identity signs them: described without a secret (docs/clouds.md)
            if (cloud.region() != null) n.put("region", cloud.region());
            if (cloud.project() != null) n.put("project", cloud.project()).put("location", cloud.location());
            if (cloud.workspaceId() != null) n.put("workspace_id", cloud.workspaceId());
            String credentials = cloud.google() != null ? cloud.google().describe()
                    : cloud.aws() != null ? cloud.aws().describe() : p.keys().isEmpty() ? "AWS default credentials chain" : "API key";
            n.put("credentials", credentials);
        }
        n.put("connect_timeout_seconds", p.connectTimeoutMs() / 1000.0);
        n.put("max_connections", p.pool().maxConnections()).put("max_queued", p.pool().maxQueued())
                .put("http_version", p.pool().http().name().toLowerCase());
        return n;
    }
}
