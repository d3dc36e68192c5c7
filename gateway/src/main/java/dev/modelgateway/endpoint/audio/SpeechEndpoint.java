package dev.modelgateway.endpoint.audio;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.call.CallServices;
import dev.modelgateway.call.OperationCall;
import dev.modelgateway.catalogue.ModelEntry;
import dev.modelgateway.catalogue.ModelKind;
import dev.modelgateway.config.OperationTimeouts;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.http.Exchange;
import dev.modelgateway.json.Fields;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.openai.media.OpenAiSpeech;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /api/v1/audio/speech}: vendor B's text-to-speech ({@link OpenAiSpeech}), the audio bytes streamed back
 * chunk by chunk as the vendor sends them. The binary answer has no usage, so the ledger records the input text's
 * tokens.
 */
public final class SpeechEndpoint {
    static final int MAX_INPUT_CHARS = 4096;
    private final CallServices platform;

    public SpeechEndpoint(CallServices platform) {
        this.platform = platform;
    }

    public void handle(RoutingContext ctx) {
        ObjectNode body = Json.parseObject(ctx.body().buffer());
        String requested = Fields.requiredString(body, "model");
        String input = Fields.requiredString(body, "input");
        if (input.length() > MAX_INPUT_CHARS) {
            throw GatewayException.invalid("input", "'input' has " + input.length() + " characters; at most " + MAX_INPUT_CHARS + " are allowed.");
        }
        if (!body.hasNonNull("voice")) throw GatewayException.invalid("voice", "Missing required parameter: 'voice'.");
        ModelEntry model = platform.catalogue().resolve(requested);
        Exchange.of(ctx).model(model.id());
        if (model.kind() != ModelKind.AUDIO || !model.has("speech")) {
            throw GatewayException.invalid("model", "Model '" + model.id() + "' does not synthesize speech; use e.g. platform/vendorB-tts.");
        }
        OperationCall.run(platform, Exchange.of(ctx), ctx.body().length(), model, OpenAiSpeech.operation(body, input),
                OperationTimeouts::speech);
    }
}
