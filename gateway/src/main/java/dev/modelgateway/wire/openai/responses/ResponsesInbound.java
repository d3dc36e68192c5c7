package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.InboundCodec;
import dev.modelgateway.wire.StreamEncoder;
import dev.modelgateway.wire.openai.chat.ChatErrors;

import java.time.Clock;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The OpenAI Responses inbound protocol, for models whose vendor does not speak it. One instance serves
 * one call: it carries the response id minted for the call, the flat names of the call's namespaced
 * functions, and a hook that receives the finished response, so the endpoint can keep it for
 * {@code previous_response_id}, {@code item_reference} and retrieval.
 */
public final class ResponsesInbound implements InboundCodec {
    private final String responseId;
    private final ToolNamespaces namespaces;
    private final Consumer<ObjectNode> onCompleted;
    private final Clock clock;

    /** A codec that mints its own ids and keeps nothing. */
    public ResponsesInbound() {
        this(newResponseId(), ToolNamespaces.NONE, response -> { }, Clock.systemUTC());
    }

    /**
     * @param namespaces  {@link ToolNamespaces#of} the call's body: the decoder flattens with the same names
     * @param onCompleted receives the response object when the response is complete
     */
    public ResponsesInbound(String responseId, ToolNamespaces namespaces, Consumer<ObjectNode> onCompleted, Clock clock) {
        this.responseId = responseId;
        this.namespaces = namespaces;
        this.onCompleted = onCompleted;
        this.clock = clock;
    }

    /** Gateway-made ids are recognisable so they are never mistaken for vendor B's. */
    public static final String GATEWAY_ID_PREFIX = "resp_gw_";

    public static String newResponseId() {
        return GATEWAY_ID_PREFIX + UUID.randomUUID().toString().replace("-", "");
    }

    /** The gateway response whose output an item id names ({@code item_reference}), or null for another id. */
    public static String responseOfItem(String itemId) {
        return ItemIds.responseOf(itemId);
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
        ObjectNode r = ResponsesResponseEncoder.encode(response, responseId, publicModel, clock.instant().getEpochSecond(),
                namespaces);
        onCompleted.accept(r);
        return r;
    }

    @Override
    public StreamEncoder newStreamEncoder(String publicModel, CanonicalRequest request) {
        return new ResponsesStreamEncoder(responseId, publicModel, clock.instant().getEpochSecond(), namespaces, onCompleted);
    }

    @Override
    public ObjectNode encodeError(GatewayException e) {
        return ChatErrors.body(e);
    }
}
