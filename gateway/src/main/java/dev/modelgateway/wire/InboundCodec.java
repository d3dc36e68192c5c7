package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.error.GatewayException;

/** One per inbound protocol: chat completions (ChatInbound) and messages (MessagesInbound). */
public interface InboundCodec {
    /** @throws GatewayException 400 naming the field on bad input; ignores "platform_options" (the server strips it) */
    CanonicalRequest decodeRequest(JsonNode body);

    ObjectNode encodeResponse(CanonicalResponse response, String publicModel);

    /** The request gives e.g. stream_options.include_usage. */
    StreamEncoder newStreamEncoder(String publicModel, CanonicalRequest request);

    /** This protocol's error body. */
    ObjectNode encodeError(GatewayException e);
}
