package dev.modelgateway.wire.anthropic;

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

/** Anthropic Messages upstream. Base URL without /v1. */
public final class AnthropicCodec implements VendorCodec {
    public static final String API_VERSION = "2023-06-01";
    /** max_tokens when the caller gave none (Anthropic requires it); the thinking budget is added on top. */
    public static final int DEFAULT_MAX_TOKENS = 4096;

    private final int defaultMaxTokens;

    public AnthropicCodec() {
        this(DEFAULT_MAX_TOKENS);
    }

    public AnthropicCodec(int defaultMaxTokens) {
        this.defaultMaxTokens = defaultMaxTokens;
    }

    @Override
    public EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream) {
        AnthropicRequestEncoder enc = new AnthropicRequestEncoder(defaultMaxTokens);
        ObjectNode body = enc.encode(request, upstreamModel, stream);
        return new EncodedRequest("/v1/messages", body, Map.of("anthropic-version", API_VERSION), enc.warnings());
    }

    @Override
    public CanonicalResponse decodeResponse(JsonNode body) {
        return AnthropicResponseDecoder.decode(body);
    }

    @Override
    public StreamDecoder newStreamDecoder() {
        return new AnthropicStreamDecoder();
    }

    @Override
    public GatewayException decodeError(int httpStatus, String body) {
        return AnthropicErrors.fromBody(httpStatus, body);
    }

    /** Anthropic fetches image and PDF URLs itself. */
    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        return media.kind() != MediaKind.AUDIO;
    }
}
