package dev.modelgateway.accounts.keys;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;

import java.util.ArrayList;
import java.util.List;

/**
 * A key's own limits for the models matching a glob, on top of the key's overall limits.
 *
 * @param models glob such as {@code platform/vendorA-*} (as in the allow-list)
 * @param rpm    requests per minute for those models together; null = no request limit
 * @param tpm    tokens per minute for those models together; null = no token limit
 */
public record ModelLimit(String models, Long rpm, Long tpm) {

    public boolean matches(String publicModel) {
        return ModelGlob.matches(models, publicModel);
    }

    /** {@code {"<glob>": {"rpm": N, "tpm": N}}} in matching order, as stored and as the API shows it. */
    public static ObjectNode toJson(List<ModelLimit> limits) {
        ObjectNode json = Json.MAPPER.createObjectNode();
        for (ModelLimit l : limits) json.putObject(l.models()).put("rpm", l.rpm()).put("tpm", l.tpm());
        return json;
    }

    /** Reads what {@link #toJson} wrote; callers taking user input validate first ({@code KeyRequests}). */
    static List<ModelLimit> fromJson(JsonNode json) {
        List<ModelLimit> limits = new ArrayList<>();
        json.properties().forEach(e -> limits.add(new ModelLimit(e.getKey(), number(e.getValue().get("rpm")),
                number(e.getValue().get("tpm")))));
        return limits;
    }

    private static Long number(JsonNode n) {
        return n == null || n.isNull() ? null : n.longValue();
    }
}
