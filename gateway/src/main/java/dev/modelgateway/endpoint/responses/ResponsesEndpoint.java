package dev.modelgateway.endpoint.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.Call;
import dev.modelgateway.call.CallRunner;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.BodyWork;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.routing.PlatformOptions;
import dev.modelgateway.services.ResponseOwners;
import dev.modelgateway.services.ResponseStore;
import dev.modelgateway.wire.CallerProtocol;
import dev.modelgateway.wire.openai.responses.ResponsesInbound;
import dev.modelgateway.wire.openai.responses.ResponsesRules;
import dev.modelgateway.wire.openai.responses.ToolNamespaces;
import io.vertx.ext.web.RoutingContext;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code POST /api/v1/responses}: natively to vendor B (relayed as is), translated through the canonical
 * model for the other vendors. What the input refers to in the gateway's store ({@code previous_response_id},
 * {@code item_reference}) is made explicit first ({@link History}); hosted tools the plan refuses are dropped
 * with a warning when the operator chose so. The work that grows with the body (its checks, the history, the
 * copy of the input kept with the response) runs beside the event loop when the body is large ({@link BodyWork}).
 */
public final class ResponsesEndpoint {
    private final CallServices platform;
    private final CallRunner runner;
    private final ResponseStore store;
    private final ResponseOwners owners;

    public ResponsesEndpoint(CallServices platform, CallRunner runner, ResponseStore store, ResponseOwners owners) {
        this.platform = platform;
        this.runner = runner;
        this.store = store;
        this.owners = owners;
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
        String keyId = ex.caller().keyId();
        boolean drop = platform.config().dropRefusedHostedTools();
        // only a translated attempt stores its response (vendor B keeps its own)
        boolean storing = keep && plan.stream().anyMatch(m -> !CallerProtocol.RESPONSES.nativeTo(m.vendor()));
        List<String> dropped = new ArrayList<>();
        long size = ctx.body().length();
        BodyWork.run(ctx.vertx(), size, () -> check(body, plan, drop, dropped))
                .andThen(done -> ex.warnCall(dropped))
                // the stored responses it refers to may be in PostgreSQL
                .compose(checked -> store.find(checked.storedIds(), keyId).compose(stored -> BodyWork.run(ctx.vertx(), size,
                        () -> prepare(body, plan.getFirst(), stored, checked.namespaces(), storing))))
                // checking which vendor B ids the key owns may ask Redis
                .compose(prepared -> History.owned(prepared.history(), keyId, owners).map(items -> {
                    if (prepared.tooLarge() != null) ex.warnCall(List.of(prepared.tooLarge()));
                    run(ctx, body, stream, prepared, options, entry, keyId);
                    return null;
                }))
                .onFailure(ctx::fail);
    }

    /** The body checked: its tool namespaces and the gateway-made responses it refers to. */
    private record Checked(ToolNamespaces namespaces, Set<String> storedIds) {
    }

    /**
     * What the call needs from the body, expanded.
     *
     * @param storedInput the input to store with the response, serialized ahead; null when nothing is stored
     * @param tooLarge    the warning when the input is too large to be stored, else null
     */
    private record Prepared(History.Expansion history, ToolNamespaces namespaces, ResponseStore.Input storedInput,
                            String tooLarge) {
    }

    /**
     * The checks and the hosted-tool rules walk the whole body: beside the event loop when it is large
     * ({@link BodyWork}). Tools dropped are added to {@code dropped}, for the warning header also when a later
     * check refuses the call.
     */
    private static Checked check(ObjectNode body, List<ModelEntry> plan, boolean drop, List<String> dropped) {
        CallerProtocol.RESPONSES.codec().validate(body);
        if (drop) dropped.addAll(ResponsesRules.dropRefusedHostedTools(body, plan));
        plan.forEach(m -> ResponsesRules.check(body, m));
        return new Checked(ToolNamespaces.of(body), History.storedIds(body));
    }

    /** The history expansion and the copy of the input kept with the response: beside the event loop when large. */
    private Prepared prepare(ObjectNode body, ModelEntry primary, Map<String, ResponseStore.Stored> stored,
                             ToolNamespaces namespaces, boolean storing) {
        History.Expansion history = History.expand(body, primary, stored);
        ResponseStore.Input input = storing ? ResponseStore.Input.of(history.items()) : null;
        if (input != null && input.json().length > store.bounds().maxResponseBytes()) {
            return new Prepared(history, namespaces, null, store.bounds().tooLarge(input.json().length));
        }
        return new Prepared(history, namespaces, input, null);
    }

    private void run(RoutingContext ctx, ObjectNode body, boolean stream, Prepared prepared, PlatformOptions options,
                     ModelEntry entry, String keyId) {
        String responseId = ResponsesInbound.newResponseId();
        ResponsesInbound codec = new ResponsesInbound(responseId, prepared.namespaces(), response -> {
            // one the output made too large is not kept (ResponseBounds); a write that failed was logged
            if (prepared.storedInput() != null) store.put(responseId, keyId, prepared.storedInput(), response);
        }, Clock.systemUTC());
        long maxOutput = body.hasNonNull("max_output_tokens") ? Fields.nonNegativeInt(body.get("max_output_tokens"), "max_output_tokens") : 0;
        // vendor B's response and output item ids, so that this key alone may refer to them later
        runner.run(new Call(Exchange.of(ctx), ctx.body().length(), CallerProtocol.RESPONSES, codec, body, stream, options, entry,
                maxOutput).onAnswerId(id -> owners.own(id, keyId)));
    }
}
