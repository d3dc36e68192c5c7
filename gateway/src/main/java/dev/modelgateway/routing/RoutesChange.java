package dev.modelgateway.routing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.json.Json;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a reload changed in the routes in force, summarized for its audit entry (docs/configuration.md, "Hot reload"):
 * the public models and the deployments added and removed, the models whose price changed and the deployments whose
 * own price did ({@code <model id> @ <deployment id>}).
 */
public final class RoutesChange {
    private RoutesChange() {
    }

    /** {@code {"models": {"added", "removed"}, "deployments": {"added", "removed"}, "prices_changed": [...]}}, sorted. */
    public static ObjectNode between(Routes before, Routes after) {
        ObjectNode out = Json.MAPPER.createObjectNode();
        Set<String> modelsBefore = before.all().keySet(), modelsAfter = after.all().keySet();
        added(out.putObject("models"), modelsBefore, modelsAfter);
        added(out.putObject("deployments"), deployments(before.all()), deployments(after.all()));
        Set<String> repriced = new TreeSet<>();
        for (ModelEntry m : after.catalogue().models()) {
            ModelEntry was = before.catalogue().find(m.id());
            if (was != null && was.id().equals(m.id()) && !Objects.equals(was.price(), m.price())) repriced.add(m.id());
        }
        // a deployment's own price (docs/clouds.md, "Prices"), named as the price tables name it
        after.all().forEach((model, ds) -> {
            for (Deployment d : ds) {
                for (Deployment was : before.all().getOrDefault(model, List.of())) {
                    if (was.id().equals(d.id()) && !Objects.equals(was.price(), d.price())) repriced.add(model + RoutePrices.VIA + d.id());
                }
            }
        });
        repriced.forEach(out.putArray("prices_changed")::add);
        return out;
    }

    private static void added(ObjectNode into, Set<String> before, Set<String> after) {
        new TreeSet<>(after).stream().filter(id -> !before.contains(id)).forEach(into.putArray("added")::add);
        new TreeSet<>(before).stream().filter(id -> !after.contains(id)).forEach(into.putArray("removed")::add);
    }

    private static Set<String> deployments(Map<String, List<Deployment>> byModel) {
        Set<String> ids = new TreeSet<>();
        byModel.forEach((model, ds) -> ds.forEach(d -> ids.add(model + " → " + d.id())));
        return ids;
    }
}
