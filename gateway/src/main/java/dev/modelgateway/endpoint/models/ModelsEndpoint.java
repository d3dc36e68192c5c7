package dev.modelgateway.endpoint.models;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelPrice;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import io.vertx.ext.web.RoutingContext;

import java.time.Instant;
import java.util.Map;

/**
 * {@code GET /api/v1/models} and {@code GET /api/v1/models/{id}}. The OpenAI list shape by default; the
 * messages SDK (recognised by its {@code anthropic-version} header) gets vendor A's list shape. Both carry
 * the catalogue's extra facts: vendor, context window, prices, capabilities, status and deployments; aliases are
 * listed as models of their own.
 */
public final class ModelsEndpoint {
    /** A fixed creation time: the catalogue has no real one and clients only sort or display it. */
    private static final long CREATED = 1_767_225_600L; // 2026-01-01T00:00:00Z

    private final CallServices platform;

    public ModelsEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void list(RoutingContext ctx) {
        boolean anthropic = ctx.request().getHeader("anthropic-version") != null;
        ObjectNode root = Json.MAPPER.createObjectNode();
        ArrayNode data = Json.MAPPER.createArrayNode();
        // every id the gateway resolves, from the routes in force: the models (retired ones marked as such, as the
        // contract's §9.4 asks), then each alias as a model of its own (id the alias, alias_of its target) with the
        // target's true limits (Bifrost listed no aliases, #3342)
        Catalogue catalogue = platform.catalogue();
        catalogue.models().forEach(m -> data.add(describe(m, anthropic)));
        catalogue.aliases().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(a -> {
            ModelEntry target = catalogue.find(a.getValue());
            data.add(describe(target, anthropic).put("id", a.getKey()).put("alias_of", target.id()));
        });
        if (anthropic) {
            root.set("data", data);
            root.put("has_more", false);
            root.put("first_id", data.isEmpty() ? null : data.get(0).path("id").asText());
            root.put("last_id", data.isEmpty() ? null : data.get(data.size() - 1).path("id").asText());
        } else {
            root.put("object", "list");
            root.set("data", data);
        }
        send(ctx, root);
    }

    public void get(RoutingContext ctx) {
        String id = ctx.pathParam("id");
        ModelEntry entry = platform.catalogue().find(id);
        if (entry == null) {
            throw GatewayException.of(ErrorKind.NOT_FOUND, "Model '" + id + "' not found.")
                    .withParam("model").withCode("model_not_found");
        }
        ObjectNode described = describe(entry, ctx.request().getHeader("anthropic-version") != null);
        if (!entry.id().equals(id)) described.put("id", id).put("alias_of", entry.id());
        send(ctx, described);
    }

    private ObjectNode describe(ModelEntry m, boolean anthropic) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        if (anthropic) {
            n.put("type", "model");
            n.put("id", m.id());
            n.put("display_name", m.id());
            n.put("created_at", Instant.ofEpochSecond(CREATED).toString());
            n.put("max_input_tokens", m.contextWindow());
            n.put("max_tokens", m.maxOutputTokens());
        } else {
            n.put("id", m.id());
            n.put("object", "model");
            n.put("created", CREATED);
            n.put("owned_by", m.vendor().id());
        }
        n.put("vendor", m.vendor().id());
        n.put("upstream_model", m.upstreamId());
        ArrayNode deployments = n.putArray("deployments");
        platform.routes().deployments(m).forEach(d -> deployments.add(d.id()));
        n.put("kind", m.kind().name().toLowerCase());
        n.put("context_window", m.contextWindow());
        if (m.maxOutputTokens() > 0) n.put("max_output_tokens", m.maxOutputTokens());
        ArrayNode caps = n.putArray("capabilities");
        m.capabilities().stream().sorted().forEach(caps::add);
        ModelPrice p = m.price();
        if (p == null || p.unknown()) {
            n.putNull("pricing");
        } else {
            ObjectNode price = n.putObject("pricing");
            price.put("currency", "USD");
            price.put("unit", "per_million_tokens");
            price.put("input", p.input());
            price.put("output", p.output());
            price.put("cache_read", p.cacheRead());
            price.put("cache_write_5m", p.cacheWrite5m());
            price.put("cache_write_1h", p.cacheWrite1h());
            price.put("reasoning", p.reasoning());
            price.put("web_search_per_call", p.webSearchCall());
        }
        n.put("status", m.status().name().toLowerCase());
        if (m.replacement() != null) n.put("replacement", m.replacement());
        return n;
    }

    private static void send(RoutingContext ctx, ObjectNode body) {
        ctx.response().putHeader("content-type", "application/json").end(Json.toBuffer(body));
    }
}
