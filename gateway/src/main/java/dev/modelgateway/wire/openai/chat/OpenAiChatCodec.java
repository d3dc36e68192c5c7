package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.StreamDecoder;
import dev.modelgateway.wire.VendorCodec;

import java.util.Map;

/** OpenAI Chat Completions upstream. Base URL includes /v1. */
public final class OpenAiChatCodec implements VendorCodec {

    @Override
    public EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream) {
        ChatCompletionsRequestEncoder enc = new ChatCompletionsRequestEncoder(ChatDialect.OPENAI);
        ObjectNode body = enc.encode(request, upstreamModel, stream);
        return new EncodedRequest("/chat/completions", body, Map.of(), enc.warnings());
    }

    @Override
    public CanonicalResponse decodeResponse(JsonNode body) {
        return ChatCompletionsResponseDecoder.decode(body);
    }

    @Override
    public StreamDecoder newStreamDecoder() {
        return new ChatCompletionsStreamDecoder();
    }

    @Override
    public GatewayException decodeError(int httpStatus, String body) {
        return ChatCompletionsErrors.fromBody(httpStatus, body);
    }

    /** OpenAI fetches image URLs; files and audio must be inline. */
    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        return media.kind() == MediaKind.IMAGE;
    }
}
