package dev.modelgateway.endpoint.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.services.ResponseStore;
import dev.modelgateway.wire.openai.responses.ResponsesInbound;

/**
 * What a Responses request refers to in the gateway's store, made explicit before routing: a gateway-made
 * {@code previous_response_id} becomes the stored conversation prepended to {@code input}, and an
 * {@code item_reference} to an item of a gateway-made response becomes that item (the Vercel AI SDK sends
 * references for every earlier output item when {@code store} is on). Other ids are vendor B's own: they
 * pass through to vendor B, and are a 400 for the other vendors, which keep nothing.
 */
final class History {
    private History() {
    }

    /** Expands the body's input in place and returns the resulting input items (what a stored response of this call begins with). */
    static ArrayNode expand(ObjectNode body, ModelEntry primary, String keyId, ResponseStore store) {
        ArrayNode items = Json.MAPPER.createArrayNode();
        JsonNode input = body.get("input");
        if (input.isTextual()) {
            items.addObject().put("role", "user").put("content", input.asText());
        } else {
            items = resolveReferences((ArrayNode) input, primary, keyId, store);
            body.set("input", items);
        }
        JsonNode previous = body.get("previous_response_id");
        if (previous == null || previous.isNull()) return items;
        if (!previous.isTextual()) throw Fields.wrongType("previous_response_id", "a string", previous);
        ResponseStore.Stored stored = store.find(previous.asText(), keyId);
        if (stored == null) {
            if (primary.vendor() == Vendor.OPENAI && !previous.asText().startsWith("resp_gw_") && store.owns(previous.asText(), keyId)) {
                return items;
            }
            throw GatewayException.invalid("previous_response_id", "previous_response_id: response '" + previous.asText()
                    + "' is not known to this gateway for this API key (it keeps the responses it produced for "
                    + ResponseStore.IDLE_EXPIRY.toHours() + " hours after last use, and which key created each vendor B"
                    + " response it relayed, in memory). Send the conversation in 'input' instead.");
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

    private static ArrayNode resolveReferences(ArrayNode input, ModelEntry primary, String keyId, ResponseStore store) {
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (int i = 0; i < input.size(); i++) {
            JsonNode item = input.get(i);
            if (!isReference(item)) {
                out.add(item);
                continue;
            }
            String p = "input[" + i + "].id";
            JsonNode id = item.get("id");
            if (id == null || !id.isTextual()) throw GatewayException.invalid(p, "'" + p + "' must be the id of an earlier item.");
            String responseId = ResponsesInbound.responseOfItem(id.asText());
            ResponseStore.Stored stored = responseId == null ? null : store.find(responseId, keyId);
            JsonNode found = stored == null ? null : stored.item(id.asText());
            if (found != null) {
                if (!foreignReasoning(found, primary)) out.add(found);
            } else if (responseId == null && primary.vendor() == Vendor.OPENAI) {
                out.add(item); // vendor B's own item: vendor B resolves it
            } else {
                throw GatewayException.invalid(p, "Item '" + id.asText() + "' not found: this gateway resolves item references "
                        + "only to items of responses it produced for this API key (kept " + ResponseStore.IDLE_EXPIRY.toHours()
                        + " hours after last use, in memory). Send the item itself in 'input' instead.");
            }
        }
        return out;
    }

    /** An {@code ItemReferenceParam}: {@code type} is {@code item_reference} or absent (then the item has neither role nor content). */
    private static boolean isReference(JsonNode item) {
        JsonNode type = item.get("type");
        if (type != null && !type.isNull()) return "item_reference".equals(type.asText());
        return item.isObject() && item.has("id") && !item.has("role") && !item.has("content");
    }

    /** Reasoning signed by another vendor means nothing to vendor B, which would refuse it. */
    private static boolean foreignReasoning(JsonNode item, ModelEntry primary) {
        return primary.vendor() == Vendor.OPENAI && "reasoning".equals(item.path("type").asText());
    }
}
