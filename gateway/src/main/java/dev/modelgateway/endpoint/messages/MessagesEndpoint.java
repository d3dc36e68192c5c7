package dev.modelgateway.endpoint.messages;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.Call;
import dev.modelgateway.call.CallRunner;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.config.Settings;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.endpoint.ChatModels;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.endpoint.MessageShape;
import dev.modelgateway.http.BodyWork;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.routing.PlatformOptions;
import dev.modelgateway.services.ResponseOwners;
import dev.modelgateway.wire.CallerProtocol;
import dev.modelgateway.wire.anthropic.AccountObjects;
import dev.modelgateway.wire.anthropic.BetaFeatures;
import dev.modelgateway.wire.anthropic.ThinkingRules;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.Set;

/** {@code POST /api/v1/messages} (docs/contract.md §2.3), the messages protocol: to every vendor, natively to A. */
public final class MessagesEndpoint {
    static final Set<String> ROLES = Set.of("user", "assistant", "system");

    private final CallServices platform;
    private final CallRunner runner;
    private final ResponseOwners owners;

    /** @param owners which key created each vendor A code execution container ({@link AccountObjects}) */
    public MessagesEndpoint(CallServices platform, CallRunner runner, ResponseOwners owners) {
        this.platform = platform;
        this.runner = runner;
        this.owners = owners;
    }

    public void handle(RoutingContext ctx) {
        JsonBody.parse(ctx, MessagesEndpoint::check, body -> handle(ctx, body));
    }

    /** The checks that walk the whole body. */
    private static void check(ObjectNode body) {
        Fields.requiredString(body, "model");
        Fields.requiredPositiveInt(body, "max_tokens");
        MessageShape.check(Fields.requiredArray(body, "messages"), ROLES, true);
        CallerProtocol.MESSAGES.codec().validate(body);
        AccountObjects.refuseFileIds(body);
    }

    private void handle(RoutingContext ctx, ObjectNode body) {
        String model = Fields.requiredString(body, "model");
        long maxTokens = Fields.requiredPositiveInt(body, "max_tokens");
        boolean stream = Fields.optionalBoolean(body, "stream", false);
        PlatformOptions options = PlatformOptions.extract(body, platform.catalogue());
        ModelEntry entry = ChatModels.resolve(platform, ctx, model, "the messages API");
        List<String> betas = platform.config().settings().list(Settings.VENDOR_A_ALLOWED_BETAS);
        String beta = BetaFeatures.allowed(ctx.request().getHeader(BetaFeatures.HEADER), betas);
        BetaFeatures.checkBody(body, betas);
        String container = AccountObjects.requestedContainer(body);
        String keyId = Exchange.of(ctx).caller().keyId();
        // Refuse docs/contract.md §2.3 violations up front, before any attempt, whichever vendor serves the call
        // (a copy of the whole body: beside the event loop when it is large)
        BodyWork.run(ctx.vertx(), ctx.body().length(), () -> {
            if (entry.vendor() == Vendor.ANTHROPIC) ThinkingRules.apply(body.deepCopy(), entry);
            return null;
        }).compose(v -> container == null ? Future.succeededFuture(true) : owners.owns(container, keyId)).map(owned -> {
            if (!owned) throw AccountObjects.containerNotFound(container);
            // the container vendor A answers with, so that this key alone may reuse it
            runner.run(new Call(Exchange.of(ctx), ctx.body().length(), CallerProtocol.MESSAGES, CallerProtocol.MESSAGES.codec(),
                    body, stream, options, entry, maxTokens).forwarding(BetaFeatures.HEADER, beta)
                    .onAnswerId(id -> owners.own(id, keyId)));
            return null;
        }).onFailure(ctx::fail);
    }
}
