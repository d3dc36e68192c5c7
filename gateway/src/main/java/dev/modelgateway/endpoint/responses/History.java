package dev.modelgateway.endpoint.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.services.ResponseOwners;
import dev.modelgateway.services.ResponseBounds;
import dev.modelgateway.services.ResponseStore;
import dev.modelgateway.wire.openai.responses.ResponsesInbound;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a Responses request refers to, made explicit before routing: a gateway-made {@code previous_response_id}
 * becomes the stored conversation prepended to {@code input}, and an {@code item_reference} to an item of a
 * gateway-made response becomes that item (the Vercel AI SDK sends references for every earlier output item
 * when {@code store} is on). Other ids are vendor B's own: they pass through to vendor B only for the key that
 * created them through this gateway ({@link ResponseOwners}; vendor B resolves them server-side under the
 * gateway's one account), and are a 400 for the other vendors, which keep nothing.
 */
final class History {
    /** A vendor B id the request names, and the field naming it. */
    private record VendorId(String param, String id) {
    }

    /**
     * The input made explicit.
     *
     * @param items     the resulting input items (what a stored response of this call begins with)
     * @param vendorIds the vendor B ids it names, which the key must own
     */
    record Expansion(ArrayNode items, List<VendorId> vendorIds) {
    }

    private History() {
    }

    /**
     * The gateway-made responses the body refers to ({@code previous_response_id}, {@code item_reference}), to be
     * read from the store before {@link #expand}. It walks the whole input: beside the event loop for a large body.
     */
    static Set<String> storedIds(ObjectNode body) {
        Set<String> ids = new LinkedHashSet<>();
        JsonNode previous = body.get("previous_response_id");
        if (previous != null && previous.isTextual() && previous.asText().startsWith(ResponsesInbound.GATEWAY_ID_PREFIX)) {
            ids.add(previous.asText());
        }
        if (body.get("input") instanceof ArrayNode input) {
            for (JsonNode item : input) {
                JsonNode id = item.get("id");
                if (isReference(item) && id != null && id.isTextual() && ResponsesInbound.responseOfItem(id.asText()) instanceof String r) {
                    ids.add(r);
                }
            }
        }
        return ids;
    }

    /**
     * Expands the body's input in place. It walks the whole input (and parses the stored responses it refers
     * to), so it runs beside the event loop for a large body; a 400 names an unknown gateway-made id.
     *
     * @param stored the key's stored responses among {@link #storedIds}
     */
    static Expansion expand(ObjectNode body, ModelEntry primary, Map<String, ResponseStore.Stored> stored) {
        List<VendorId> vendorIds = new ArrayList<>();
        ArrayNode items = expand(body, primary, stored, vendorIds);
        return new Expansion(items, vendorIds);
    }

    /**
     * The expansion's items, or a failure with a 400 naming the first vendor B id the key does not own (a 503
     * when that cannot be told): checking may ask Redis.
     */
    static Future<ArrayNode> owned(Expansion expansion, String keyId, ResponseOwners owners) {
        List<VendorId> vendorIds = expansion.vendorIds();
        if (vendorIds.isEmpty()) return Future.succeededFuture(expansion.items());
        return owners.notOwned(vendorIds.stream().map(VendorId::id).toList(), keyId).map(foreign -> {
            for (VendorId v : vendorIds) {
                if (foreign.contains(v.id())) throw notFound(v);
            }
            return expansion.items();
        });
    }

    private static ArrayNode expand(ObjectNode body, ModelEntry primary, Map<String, ResponseStore.Stored> store,
                                    List<VendorId> vendorIds) {
        ArrayNode items = Json.MAPPER.createArrayNode();
        JsonNode input = body.get("input");
        if (input.isTextual()) {
            items.addObject().put("role", "user").put("content", input.asText());
        } else {
            items = resolveReferences((ArrayNode) input, primary, store, vendorIds);
            body.set("input", items);
        }
        JsonNode previous = body.get("previous_response_id");
        if (previous == null || previous.isNull()) return items;
        if (!previous.isTextual()) throw Fields.wrongType("previous_response_id", "a string", previous);
        ResponseStore.Stored stored = store.get(previous.asText());
        if (stored == null) {
            VendorId id = new VendorId("previous_response_id", previous.asText());
            if (primary.vendor() != Vendor.OPENAI || id.id().startsWith(ResponsesInbound.GATEWAY_ID_PREFIX)) throw notFound(id);
            vendorIds.add(id);
            return items;
        }
        ArrayNode expanded = Json.MAPPER.createArrayNode();
        for (JsonNode item : stored.items()) {
            if (!foreignReasoning(item, primary)) expanded.add(item);
        }
        expanded.addAll(items);
        body.set("input", expanded);
        body.remove("previous_response_id");
        return expanded;
    }

    private static ArrayNode resolveReferences(ArrayNode input, ModelEntry primary, Map<String, ResponseStore.Stored> store,
                                               List<VendorId> vendorIds) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        // each stored response referred to, parsed once for all its items (it is kept as JSON)
        Map<String, Map<String, JsonNode>> storedItems = new HashMap<>();
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            String p = "input[" + i + "].id";
            if (!isReference(item)) {
                out.add(item);
                if (primary.vendor() == Vendor.OPENAI && resolvedByVendor(item) && item.get("id").isTextual()
                        && ResponsesInbound.responseOfItem(item.get("id").asText()) == null) {
                    vendorIds.add(new VendorId(p, item.get("id").asText()));
                }
                continue;
            }
            JsonNode id = item.get("id");
            if (id == null || !id.isTextual()) throw GatewayException.invalid(p, "'" + p + "' must be the id of an earlier item.");
            String responseId = ResponsesInbound.responseOfItem(id.asText());
            JsonNode found = responseId == null ? null
                    : storedItems.computeIfAbsent(responseId, r -> itemsById(store.get(r))).get(id.asText());
            if (found != null) {
                // a copy: the same item may be referred to twice
                if (!foreignReasoning(found, primary)) out.add(found.deepCopy());
            } else if (responseId == null && primary.vendor() == Vendor.OPENAI) {
                out.add(item); // vendor B's own item: vendor B resolves it, if this key made it
                vendorIds.add(new VendorId(p, id.asText()));
            } else {
                throw notFound(new VendorId(p, id.asText()));
            }
        }
        return out;
    }

    /** A stored response's input and output items by id (the first of an id); none when it is not this key's. */
    private static Map<String, JsonNode> itemsById(ResponseStore.Stored stored) {
        Map<String, JsonNode> byId = new HashMap<>();
        if (stored == null) return byId;
        for (JsonNode item : stored.items()) {
            String id = item.path("id").asText(null);
            if (id != null) byId.putIfAbsent(id, item);
        }
        return byId;
    }

    /** The same answer for an unknown id and for another key's: which ids exist is not disclosed. */
    private static GatewayException notFound(VendorId v) {
        if (v.param().equals("previous_response_id")) {
            // vendor B's answer to an unknown previous response, with why and what to do
            return GatewayException.invalid(v.param(), "Previous response with id '" + v.id() + "' not found. This gateway keeps "
                    + "the responses it produced for the API key that made them, " + ResponseBounds.IDLE_EXPIRY.toHours() + " hours after "
                    + "last use, and which key created each vendor B response it relayed. Send the conversation in 'input' instead of "
                    + "previous_response_id.")
                    .withCode("previous_response_not_found");
        }
        return GatewayException.invalid(v.param(), "Item '" + v.id() + "' not found: this gateway resolves item references only to "
                + "items of responses it produced for this API key (kept " + ResponseBounds.IDLE_EXPIRY.toHours() + " hours after last use),"
                + " and passes vendor B's item ids on only for the key that received them. Send the item itself in 'input' instead.");
    }

    /** An {@code ItemReferenceParam}: {@code type} is {@code item_reference} or absent (then the item has neither role nor content). */
    private static boolean isReference(JsonNode item) {
        JsonNode type = item.get("type");
        if (type != null && !type.isNull()) return "item_reference".equals(type.asText());
        return item.isObject() && item.has("id") && !item.has("role") && !item.has("content");
    }

    /**
     * An item that vendor B completes from its store by its id: reasoning without its {@code encrypted_content}
     * (Codex sends that content and so is not concerned), a function call without the call itself.
     */
    private static boolean resolvedByVendor(JsonNode item) {
        if (!item.hasNonNull("id")) return false;
        return switch (item.path("type").asText()) {
            case "reasoning" -> !item.hasNonNull("encrypted_content");
            case "function_call" -> !item.hasNonNull("call_id") || !item.hasNonNull("arguments");
            default -> false;
        };
    }

    /** Reasoning signed by another vendor means nothing to vendor B, which would refuse it. */
    private static boolean foreignReasoning(JsonNode item, ModelEntry primary) {
        return primary.vendor() == Vendor.OPENAI && "reasoning".equals(item.path("type").asText());
    }
}
