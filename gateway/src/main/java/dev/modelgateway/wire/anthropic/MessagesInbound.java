package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.InboundCodec;
import dev.modelgateway.wire.StreamEncoder;

/** The Anthropic Messages inbound protocol. */
public final class MessagesInbound implements InboundCodec {

    @Override
    public void validate(JsonNode body) {
        MessagesRequestBounds.check(body);
    }

    @Override
    public CanonicalRequest decodeRequest(JsonNode body) {
        return MessagesRequestDecoder.decode(body);
    }

    @Override
    public ObjectNode encodeResponse(CanonicalResponse response, String publicModel) {
        return MessagesResponseEncoder.encode(response, publicModel);
    }

    @Override
    public StreamEncoder newStreamEncoder(String publicModel, CanonicalRequest request) {
        return new MessagesStreamEncoder(publicModel, request);
    }

    @Override
    public ObjectNode encodeError(GatewayException e) {
        return MessagesErrors.body(e);
    }
}
