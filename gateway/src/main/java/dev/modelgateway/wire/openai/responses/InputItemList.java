package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.error.GatewayException;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /responses/{id}/input_items} for a response the gateway made: the OpenAPI document's
 * {@code ResponseItemList} ({@code object:"list"}, {@code data}, {@code first_id}, {@code last_id},
 * {@code has_more}) of {@code ItemResource}s. Input items as callers send them may lack what a resource
 * has (an {@code id}, a {@code status}, typed content parts), so each is completed on the way out; an item
 * without an id gets one derived from its position, stable from one page to the next.
 */
public final class InputItemList {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    static final int DEFAULT_LIMIT = 20;
    static final int MAX_LIMIT = 100;

    private InputItemList() {
    }

    /**
     * @param order {@code asc} or {@code desc} (the default, newest first), null for the default
     * @param after an item id: the page starts after it
     * @param limit 1 to 100, null for 20
     */
    public static ObjectNode page(String responseId, ArrayNode input, String order, String after, String limit) {
        int max = limit(limit);
        boolean desc = order == null || order.equals("desc");
        if (!desc && !order.equals("asc")) throw GatewayException.invalid("order", "'order' must be asc or desc.");
        List<ObjectNode> items = new ArrayList<>();
        for (int i = 0; i < input.size(); i++) items.add(resource(input.get(i), responseId, i));
        if (desc) items = items.reversed();
        int from = 0;
        if (after != null) {
            from = -1;
            for (int i = 0; i < items.size() && from < 0; i++) {
                if (after.equals(items.get(i).path("id").asText())) from = i + 1;
            }
            if (from < 0) throw GatewayException.invalid("after", "No input item with id '" + after + "' in response '" + responseId + "'.");
        }
        int to = Math.min(items.size(), from + max);
        ObjectNode list = F.objectNode().put("object", "list");
        ArrayNode data = list.putArray("data");
        items.subList(from, to).forEach(data::add);
        if (data.isEmpty()) {
            list.putNull("first_id");
            list.putNull("last_id");
        } else {
            list.put("first_id", data.get(0).path("id").asText());
            list.put("last_id", data.get(data.size() - 1).path("id").asText());
        }
        return list.put("has_more", to < items.size());
    }

    private static int limit(String limit) {
        if (limit == null) return DEFAULT_LIMIT;
        try {
            int n = Integer.parseInt(limit.trim());
            if (n >= 1 && n <= MAX_LIMIT) return n;
        } catch (NumberFormatException e) {
            // refused below
        }
        throw GatewayException.invalid("limit", "'limit' must be an integer from 1 to " + MAX_LIMIT + "; got '" + limit + "'.");
    }

    /** One input item as an {@code ItemResource}. */
    static ObjectNode resource(JsonNode item, String responseId, int index) {
        ObjectNode r = item.isObject() ? ((ObjectNode) item).deepCopy() : F.objectNode();
        String type = r.path("type").asText("message");
        r.put("type", type);
        if (!r.path("id").isTextual()) {
            String suffix = responseId.startsWith("resp_") ? responseId.substring(5) : responseId;
            r.put("id", prefix(type) + "_" + suffix + "_in" + index);
        }
        switch (type) {
            case "message" -> {
                boolean assistant = "assistant".equals(r.path("role").asText());
                JsonNode content = r.get("content");
                if (content != null && content.isTextual()) {
                    ObjectNode part = F.objectNode().put("type", assistant ? "output_text" : "input_text").put("text", content.asText());
                    if (assistant) part.putArray("annotations");
                    r.set("content", F.arrayNode().add(part));
                }
                if (!r.has("status")) r.put("status", "completed");
            }
            case "function_call", "function_call_output" -> {
                if (!r.has("status")) r.put("status", "completed");
            }
            case "reasoning" -> {
                if (!r.has("summary")) r.putArray("summary");
            }
            default -> { }
        }
        return r;
    }

    private static String prefix(String type) {
        return switch (type) {
            case "message" -> "msg";
            case "function_call" -> "fc";
            case "function_call_output" -> "fco";
            case "reasoning" -> "rs";
            default -> "item";
        };
    }
}
