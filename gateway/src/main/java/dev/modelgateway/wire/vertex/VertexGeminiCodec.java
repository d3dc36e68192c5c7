package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.StreamDecoder;
import dev.modelgateway.wire.VendorCodec;
import dev.modelgateway.wire.gemini.GeminiCodec;

/**
 * Vendor C's models on Vertex: the Gemini codec's request on the Vertex path ({@link VertexGemini}), its answers and
 * streams decoded unchanged, errors by {@link VertexErrors}.
 */
public final class VertexGeminiCodec implements VendorCodec {
    private final VertexLocation at;
    private final GeminiCodec gemini;

    public VertexGeminiCodec(VertexLocation at) {
        this(at, new GeminiCodec());
    }

    public VertexGeminiCodec(VertexLocation at, GeminiCodec gemini) {
        this.at = at;
        this.gemini = gemini;
    }

    @Override
    public EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream) {
        return VertexGemini.onVertex(at, gemini.encodeRequest(request, upstreamModel, stream));
    }

    @Override
    public CanonicalResponse decodeResponse(JsonNode body) {
        return gemini.decodeResponse(body);
    }

    @Override
    public StreamDecoder newStreamDecoder() {
        return gemini.newStreamDecoder();
    }

    @Override
    public GatewayException decodeError(int httpStatus, String body) {
        return VertexErrors.decode(httpStatus, body, at, null);
    }

    /**
     * Vertex reads Cloud Storage ({@code gs://}) and YouTube URIs in {@code fileData}; the Developer API's Files URIs
     * do not exist there, so every other URL is fetched by the gateway and inlined.
     */
    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        String u = media.url();
        return u != null && (u.startsWith("gs://") || u.startsWith("https://www.youtube.com/") || u.startsWith("https://youtu.be/"));
    }
}
