package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.InboundCodec;
import dev.modelgateway.wire.StreamEncoder;
import dev.modelgateway.wire.openai.chat.ChatErrors;

import java.time.Clock;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * The OpenAI Responses inbound protocol, for models whose vendor does not speak it. One instance serves
 * one call: it carries the response id minted for the call and a hook that receives the finished output
 * items, so the endpoint can keep the response for {@code previous_response_id}.
 */
public final class ResponsesInbound implements InboundCodec {
    private final String responseId;
    private final BiConsumer<String, ArrayNode> onCompleted;
    private final Clock clock;

    /** A codec that mints its own ids and keeps nothing. */
    public ResponsesInbound() {
        this(newResponseId(), (id, output) -> { }, Clock.systemUTC());
    }

    /** @param onCompleted receives the response id and its output items when the response is complete */
    public ResponsesInbound(String responseId, BiConsumer<String, ArrayNode> onCompleted, Clock clock) {
        this.responseId = responseId;
        this.onCompleted = onCompleted;
        this.clock = clock;
    }

    /** Gateway-made ids are recognisable ({@code resp_gw_}) so they are never mistaken for vendor B's. */
    public static String newResponseId() {
        return "resp_gw_" + UUID.randomUUID().toString().replace("-", "");
    }

    @Override
    public void validate(JsonNode body) {
        ResponsesRequestBounds.check(body);
    }

    @Override
    public CanonicalRequest decodeRequest(JsonNode body) {
        return ResponsesRequestDecoder.decode(body);
    }

    @Override
    public ObjectNode encodeResponse(CanonicalResponse response, String publicModel) {
        ObjectNode r = ResponsesResponseEncoder.encode(response, responseId, publicModel, clock.instant().getEpochSecond());
        onCompleted.accept(responseId, (ArrayNode) r.get("output"));
        return r;
    }

    @Override
    public StreamEncoder newStreamEncoder(String publicModel, CanonicalRequest request) {
        return new ResponsesStreamEncoder(responseId, publicModel, clock.instant().getEpochSecond(),
                output -> onCompleted.accept(responseId, output));
    }

    @Override
    public ObjectNode encodeError(GatewayException e) {
        return ChatErrors.body(e);
    }
}
