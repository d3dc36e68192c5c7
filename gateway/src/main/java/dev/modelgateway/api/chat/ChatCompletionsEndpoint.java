package dev.modelgateway.api.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.api.Call;
import dev.modelgateway.api.ChatModels;
import dev.modelgateway.api.Dispatcher;
import dev.modelgateway.api.InboundProtocol;
import dev.modelgateway.api.MessageShape;
import dev.modelgateway.api.Platform;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.routing.PlatformOptions;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;

/** {@code POST /api/v1/chat/completions} (SPEC 2.4): to every vendor, natively to B and D. */
public final class ChatCompletionsEndpoint {
    static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool", "function");

    private final Platform platform;
    private final Dispatcher dispatcher;

    public ChatCompletionsEndpoint(Platform platform, Dispatcher dispatcher) {
        this.platform = platform;
        this.dispatcher = dispatcher;
    }

    public void handle(RoutingContext ctx) {
        ObjectNode body = Json.parseObject(ctx.body().buffer());
        String model = Fields.requiredString(body, "model");
        MessageShape.check(Fields.requiredArray(body, "messages"), ROLES, false);
        boolean stream = Fields.optionalBoolean(body, "stream", false);
        PlatformOptions options = PlatformOptions.extract(body, platform.catalogue());
        ModelEntry entry = ChatModels.resolve(platform, ctx, model, "chat completions");
        SeriesSixRules.check(body, entry);
        dispatcher.dispatch(new Call(ctx, InboundProtocol.CHAT, body, stream, options, entry, maxOutputTokens(body)));
    }

    private static long maxOutputTokens(ObjectNode body) {
        for (String field : new String[]{"max_completion_tokens", "max_tokens"}) {
            JsonNode v = body.get(field);
            if (v != null && !v.isNull()) return Fields.nonNegativeInt(v, field);
        }
        return 0;
    }
}
