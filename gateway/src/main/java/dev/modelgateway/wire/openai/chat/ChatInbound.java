package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.InboundCodec;
import dev.modelgateway.wire.StreamEncoder;

import java.time.Clock;

/** The OpenAI Chat Completions inbound protocol. */
public final class ChatInbound implements InboundCodec {
    private final Clock clock;

    public ChatInbound() {
        this(Clock.systemUTC());
    }

    /** @param clock source of the {@code created} timestamp */
    public ChatInbound(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void validate(JsonNode body) {
        ChatRequestBounds.check(body);
    }

    @Override
    public CanonicalRequest decodeRequest(JsonNode body) {
        return ChatRequestDecoder.decode(body);
    }

    @Override
    public ObjectNode encodeResponse(CanonicalResponse response, String publicModel) {
        return ChatResponseEncoder.encode(response, publicModel, clock.instant().getEpochSecond());
    }

    @Override
    public StreamEncoder newStreamEncoder(String publicModel, CanonicalRequest request) {
        return new ChatStreamEncoder(publicModel, request != null && request.includeUsage(),
                clock.instant().getEpochSecond());
    }

    @Override
    public ObjectNode encodeError(GatewayException e) {
        return ChatErrors.body(e);
    }
}
