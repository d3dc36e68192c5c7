package dev.modelgateway.wire.qwen;

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
import dev.modelgateway.wire.openai.chat.ChatCompletionsErrors;
import dev.modelgateway.wire.openai.chat.ChatCompletionsRequestEncoder;
import dev.modelgateway.wire.openai.chat.ChatCompletionsResponseDecoder;
import dev.modelgateway.wire.openai.chat.ChatCompletionsStreamDecoder;
import dev.modelgateway.wire.openai.chat.ChatDialect;

import java.util.Map;

/**
 * Qwen through DashScope compatible mode (base URL {@code …/compatible-mode/v1}). Chat-completions shaped, with
 * {@code enable_thinking}/{@code thinking_budget}, {@code reasoning_content}, {@code cache_control} on parts and
 * {@code partial} prefill.
 */
public final class QwenCodec implements VendorCodec {

    @Override
    public EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream) {
        ChatCompletionsRequestEncoder enc = new ChatCompletionsRequestEncoder(ChatDialect.QWEN);
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

    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        return media.kind() == MediaKind.IMAGE;
    }
}
