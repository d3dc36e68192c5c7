package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.error.GatewayException;

/** One per inbound protocol: chat completions (ChatInbound), messages (MessagesInbound) and Responses (ResponsesInbound). */
public interface InboundCodec {
    /**
     * Refuses what this protocol's own vendor would refuse (ranges, enums, combinations), with a 400 naming the
     * field. The endpoint runs it once for every call, before any attempt, so native and translated calls get
     * the same answer (docs/translation.md, "Parameters without an equivalent").
     */
    void validate(JsonNode body);

    /** @throws GatewayException 400 naming the field on bad input; ignores "platform_options" (the server strips it) */
    CanonicalRequest decodeRequest(JsonNode body);

    ObjectNode encodeResponse(CanonicalResponse response, String publicModel);

    /** The request gives e.g. stream_options.include_usage. */
    StreamEncoder newStreamEncoder(String publicModel, CanonicalRequest request);

    /** This protocol's error body. */
    ObjectNode encodeError(GatewayException e);
}
