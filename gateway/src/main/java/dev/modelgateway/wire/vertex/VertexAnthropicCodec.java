package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.StreamDecoder;
import dev.modelgateway.wire.VendorCodec;
import dev.modelgateway.wire.anthropic.AnthropicCodec;

import java.util.HashMap;
import java.util.Map;

/**
 * Vendor A's models on Vertex for the translated path: vendor A's own encoding, moved onto {@code rawPredict} by
 * {@link VertexAnthropic}; answers and streams are vendor A's, decoded by its codec; errors by {@link VertexErrors}.
 */
public final class VertexAnthropicCodec implements VendorCodec {
    private final VertexLocation at;
    private final AnthropicCodec anthropic;

    public VertexAnthropicCodec(VertexLocation at) {
        this(at, new AnthropicCodec());
    }

    public VertexAnthropicCodec(VertexLocation at, AnthropicCodec anthropic) {
        this.at = at;
        this.anthropic = anthropic;
    }

    @Override
    public EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream) {
        EncodedRequest direct = anthropic.encodeRequest(request, upstreamModel, stream);
        String path = VertexAnthropic.prepare(direct.body(), at, upstreamModel);
        // the version travels in the body on Vertex; Anthropic's Vertex client drops the header too
        Map<String, String> headers = new HashMap<>(direct.headers());
        headers.remove("anthropic-version");
        return new EncodedRequest(path, direct.body(), headers, direct.warnings());
    }

    @Override
    public CanonicalResponse decodeResponse(JsonNode body) {
        return anthropic.decodeResponse(body);
    }

    @Override
    public StreamDecoder newStreamDecoder() {
        return anthropic.newStreamDecoder();
    }

    @Override
    public GatewayException decodeError(int httpStatus, String body) {
        return VertexErrors.decode(httpStatus, body, at, null);
    }

    /**
     * Media by URL is fetched by the gateway and inlined: Google documents base64 image and PDF sources for vendor A's
     * models on Vertex, not URL sources (https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude).
     */
    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        return false;
    }
}
