package dev.modelgateway.endpoint.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.Call;
import dev.modelgateway.call.CallRunner;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.endpoint.ChatModels;
import dev.modelgateway.endpoint.JsonBody;
import dev.modelgateway.endpoint.MessageShape;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.routing.PlatformOptions;
import dev.modelgateway.wire.CallerProtocol;
import dev.modelgateway.wire.openai.chat.ChatSamplingRules;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;

/** {@code POST /api/v1/chat/completions} (docs/contract.md §2.4): to every vendor, natively to B and D. */
public final class ChatCompletionsEndpoint {
    static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool", "function");

    private final CallServices platform;
    private final CallRunner runner;

    public ChatCompletionsEndpoint(CallServices platform, CallRunner runner) {
        this.platform = platform;
        this.runner = runner;
    }

    public void handle(RoutingContext ctx) {
        JsonBody.parse(ctx, ChatCompletionsEndpoint::check, body -> handle(ctx, body));
    }

    /** The checks that walk the whole body. */
    private static void check(ObjectNode body) {
        Fields.requiredString(body, "model");
        MessageShape.check(Fields.requiredArray(body, "messages"), ROLES, false);
    }

    private void handle(RoutingContext ctx, ObjectNode body) {
        String model = Fields.requiredString(body, "model");
        boolean stream = Fields.optionalBoolean(body, "stream", false);
        PlatformOptions options = PlatformOptions.extract(body, platform.catalogue());
        ModelEntry entry = ChatModels.resolve(platform, ctx, model, "chat completions");
        ChatSamplingRules.check(body, entry);
        CallerProtocol.CHAT.codec().validate(body);
        runner.run(new Call(Exchange.of(ctx), ctx.body().length(), CallerProtocol.CHAT, CallerProtocol.CHAT.codec(), body, stream,
                options, entry, maxOutputTokens(body)));
    }

    private static long maxOutputTokens(ObjectNode body) {
        for (String field : new String[]{"max_completion_tokens", "max_tokens"}) {
            JsonNode v = body.get(field);
            if (v != null && !v.isNull()) return Fields.nonNegativeInt(v, field);
        }
        return 0;
    }
}
