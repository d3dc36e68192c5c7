package dev.modelgateway.endpoint.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.Call;
import dev.modelgateway.call.CallRunner;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.PlatformOptions;
import dev.modelgateway.services.ResponseStore;
import dev.modelgateway.wire.CallerProtocol;
import dev.modelgateway.wire.openai.responses.ResponsesInbound;
import dev.modelgateway.wire.openai.responses.ResponsesRules;
import io.vertx.ext.web.RoutingContext;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code POST /api/v1/responses}: natively to vendor B (relayed as is), translated through the canonical
 * model for the other vendors. {@code previous_response_id} naming a response the gateway produced is
 * expanded here into the stored conversation; any other id is vendor B's own and passes through to it.
 */
public final class ResponsesEndpoint {
    private final CallServices platform;
    private final CallRunner runner;
    private final ResponseStore store;

    public ResponsesEndpoint(CallServices platform, CallRunner runner, ResponseStore store) {
        this.platform = platform;
        this.runner = runner;
        this.store = store;
    }

    public void handle(RoutingContext ctx) {
        JsonBody.parse(ctx, body -> handle(ctx, body));
    }

    private void handle(RoutingContext ctx, ObjectNode body) {
        String model = Fields.requiredString(body, "model");
        JsonNode input = body.get("input");
        if (input == null || input.isNull()) throw GatewayException.invalid("input", "Missing required parameter: 'input'.");
        if (!input.isTextual() && !input.isArray()) throw Fields.wrongType("input", "a string or an array", input);
        boolean stream = Fields.optionalBoolean(body, "stream", false);
        boolean keep = Fields.optionalBoolean(body, "store", true);
        PlatformOptions options = PlatformOptions.extract(body, platform.catalogue());
        ModelEntry entry = platform.catalogue().resolve(model);
        Exchange ex = Exchange.of(ctx);
        ex.model(entry.id());
        if (entry.kind() != ModelKind.CHAT) {
            throw GatewayException.invalid("model", "Model '" + entry.id() + "' is an " + entry.kind().name().toLowerCase()
                    + " model and cannot be used with the Responses API.");
        }
        List<ModelEntry> plan = new ArrayList<>(List.of(entry));
        plan.addAll(options.fallbacks());
        CallerProtocol.RESPONSES.codec().validate(body);
        plan.forEach(m -> ResponsesRules.check(body, m));

        String keyId = ex.caller().keyId();
        ArrayNode items = expandHistory(body, entry, keyId);
        String responseId = ResponsesInbound.newResponseId();
        ResponsesInbound codec = new ResponsesInbound(responseId, (id, output) -> {
            if (!keep) return;
            ArrayNode conversation = items.deepCopy();
            output.forEach(conversation::add);
            store.put(id, keyId, conversation);
        }, Clock.systemUTC());
        long maxOutput = body.hasNonNull("max_output_tokens") ? Fields.nonNegativeInt(body.get("max_output_tokens"), "max_output_tokens") : 0;
        runner.run(new Call(Exchange.of(ctx), ctx.body().length(), CallerProtocol.RESPONSES, codec, body, stream, options, entry,
                maxOutput).onAnswerId(id -> store.own(id, keyId)));
    }

    /**
     * Replaces a gateway-made {@code previous_response_id} by the stored conversation prepended to
     * {@code input}, and returns the resulting input items (what a stored response of this call begins with).
     */
    private ArrayNode expandHistory(ObjectNode body, ModelEntry primary, String keyId) {
        ArrayNode items = Json.MAPPER.createArrayNode();
        JsonNode input = body.get("input");
        if (input.isTextual()) items.addObject().put("role", "user").put("content", input.asText());
        else items.addAll((ArrayNode) input);
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
            // Reasoning signed by another vendor means nothing to vendor B, which would refuse it.
            if (primary.vendor() == Vendor.OPENAI && "reasoning".equals(item.path("type").asText())) continue;
            expanded.add(item);
        }
        expanded.addAll(items);
        body.set("input", expanded);
        body.remove("previous_response_id");
        return expanded;
    }
}
