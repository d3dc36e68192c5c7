package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.function.UnaryOperator;

/**
 * Steps shared by every generation endpoint: pick the effective directive, parse the body, refuse unknown
 * models and answer status faults. Returns null when a response has already been sent.
 */
final class Prelude {
    private Prelude() {
    }

    static JsonNode begin(VendorSimulator sim, Exchange ex, String body, String pathModel,
                          UnaryOperator<String> notFoundMessage) {
        Directive d = sim.faults.resolve(ex.vendor, Directive.find(body));
        ex.directive = d;
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        } catch (Exception e) {
            root = null;
        }
        if (root == null || !root.isObject()) {
            ex.fail(400, "The request body is not valid JSON.", null);
            return null;
        }
        String model = pathModel != null ? pathModel : Json.text(root, "model");
        if (model != null && model.contains("does-not-exist")) {
            ex.fail(404, notFoundMessage.apply(model), "model_not_found");
            return null;
        }
        if (d.status() > 0) {
            ex.fail(d.status(), null, null);
            return null;
        }
        return root;
    }
}
