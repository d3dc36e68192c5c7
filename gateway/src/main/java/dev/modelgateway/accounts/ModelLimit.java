package dev.modelgateway.accounts;

import io.vertx.core.json.JsonObject;

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

    boolean matches(String publicModel) {
        return ModelGlob.matches(models, publicModel);
    }

    RateLimits limits() {
        return new RateLimits(rpm == null ? 0 : rpm, tpm == null ? 0 : tpm);
    }

    /** {@code {"<glob>": {"rpm": N, "tpm": N}}} in matching order, as stored and as the API shows it. */
    static JsonObject toJson(List<ModelLimit> limits) {
        JsonObject json = new JsonObject();
        for (ModelLimit l : limits) json.put(l.models(), new JsonObject().put("rpm", l.rpm()).put("tpm", l.tpm()));
        return json;
    }

    /** Reads what {@link #toJson} wrote; callers taking user input validate first ({@code KeyRequests}). */
    static List<ModelLimit> fromJson(JsonObject json) {
        List<ModelLimit> limits = new ArrayList<>();
        json.forEach(e -> {
            JsonObject l = (JsonObject) e.getValue();
            limits.add(new ModelLimit(e.getKey(), l.getLong("rpm"), l.getLong("tpm")));
        });
        return limits;
    }
}
