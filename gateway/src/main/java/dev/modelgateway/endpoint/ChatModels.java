package dev.modelgateway.endpoint;

import dev.modelgateway.call.CallServices;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import io.vertx.ext.web.RoutingContext;

/** The model of a conversational call: resolved by the catalogue rules, noted for the access log, and a chat model. */
public final class ChatModels {
    private ChatModels() {
    }

    /** @param api the endpoint's name as the 400 says it, e.g. "chat completions" */
    public static ModelEntry resolve(CallServices platform, RoutingContext ctx, String model, String api) {
        ModelEntry entry = platform.catalogue().resolve(model);
        Exchange.of(ctx).model(entry.id());
        if (entry.kind() != ModelKind.CHAT) {
            throw GatewayException.invalid("model", "Model '" + entry.id() + "' is an " + entry.kind().name().toLowerCase()
                    + " model and cannot be used with " + api + ".");
        }
        return entry;
    }
}
