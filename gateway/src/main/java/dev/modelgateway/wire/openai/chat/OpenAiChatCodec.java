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

/**
 * Chat Completions upstream: vendor B (base URL includes /v1), and, with its dialect, every server that speaks
 * the same wire format (vendor D's compatible mode, {@code wire/qwen}).
 */
public class OpenAiChatCodec implements VendorCodec {
    private final ChatDialect dialect;

    public OpenAiChatCodec() {
        this(ChatDialect.OPENAI);
    }

    protected OpenAiChatCodec(ChatDialect dialect) {
        this.dialect = dialect;
    }

    @Override
    public EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream) {
        ChatCompletionsRequestEncoder enc = new ChatCompletionsRequestEncoder(dialect);
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

    /** Image URLs are fetched by the vendor; files and audio must be inline. */
    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        return media.kind() == MediaKind.IMAGE;
    }
}
