package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Vendor B's stored responses: a response created with {@code store} not false can be retrieved
 * ({@code GET /openai/v1/responses/{id}}), deleted ({@code DELETE}, answering {@code {id, object, deleted}}) and
 * its input items listed ({@code GET …/input_items}: {@code order} desc by default, {@code limit} 1–100 default 20,
 * {@code after}). Unknown ids are vendor B's 404 {@code "Response with id '…' not found."}. The most recent
 * 10,000 are kept, in memory.
 */
final class StoredResponses {
    private static final int MAX = 10_000;

    private record Stored(ObjectNode response, ArrayNode input) { }

    private final Map<String, Stored> byId = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Stored> eldest) {
            return size() > MAX;
        }
    };

    synchronized void put(ObjectNode response, JsonNode input) {
        ArrayNode items = Json.arr();
        if (input != null && input.isTextual()) {
            ObjectNode m = items.addObject().put("type", "message").put("role", "user");
            m.putArray("content").addObject().put("type", "input_text").put("text", input.asText());
        } else if (input != null) {
            input.forEach(i -> items.add(i.deepCopy()));
        }
        String suffix = response.path("id").asText().replace("resp_", "");
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i) instanceof ObjectNode o && !o.has("id")) o.put("id", "item_" + suffix + "_" + i);
        }
        byId.put(response.path("id").asText(), new Stored(response.deepCopy(), items));
    }

    /** Whether an output item of a stored response has this id (vendor B resolves replayed items by id). */
    synchronized boolean hasOutputItem(String id) {
        for (Stored s : byId.values()) {
            for (JsonNode item : s.response.path("output")) if (id.equals(item.path("id").asText())) return true;
        }
        return false;
    }

    /** Answers {@code GET}/{@code DELETE} on {@code /openai/v1/responses/{id}[/input_items]}; false if the path is another. */
    boolean handle(Exchange ex, String path) {
        String rest = path.substring("/openai/v1/responses/".length());
        boolean list = rest.endsWith("/input_items");
        String id = list ? rest.substring(0, rest.length() - "/input_items".length()) : rest;
        if (id.isEmpty() || id.contains("/")) return false;
        String method = ex.req.method().name();
        if (!(method.equals("GET") || method.equals("DELETE") && !list)) return false;
        Stored e;
        synchronized (this) {
            e = method.equals("DELETE") ? byId.remove(id) : byId.get(id);
        }
        if (e == null) {
            ex.fail(404, "Response with id '" + id + "' not found.", null);
        } else if (method.equals("DELETE")) {
            ex.ok(Json.write(Json.obj().put("id", id).put("object", "response").put("deleted", true)));
        } else if (!list) {
            ex.ok(Json.write(e.response));
        } else {
            ex.ok(Json.write(page(e.input, ex.req.getParam("order"), ex.req.getParam("after"), ex.req.getParam("limit"))));
        }
        return true;
    }

    private static ObjectNode page(ArrayNode input, String order, String after, String limit) {
        List<JsonNode> items = new ArrayList<>();
        input.forEach(items::add);
        if (!"asc".equals(order)) items = items.reversed();
        int from = 0;
        for (int i = 0; after != null && i < items.size(); i++) {
            if (after.equals(items.get(i).path("id").asText())) from = i + 1;
        }
        int max = limit == null ? 20 : Math.max(1, Math.min(100, Integer.parseInt(limit)));
        int to = Math.min(items.size(), from + max);
        ObjectNode out = Json.obj().put("object", "list");
        ArrayNode data = out.putArray("data");
        items.subList(from, to).forEach(data::add);
        if (data.isEmpty()) out.putNull("first_id").putNull("last_id");
        else out.put("first_id", data.get(0).path("id").asText()).put("last_id", data.get(data.size() - 1).path("id").asText());
        return out.put("has_more", to < items.size());
    }
}
