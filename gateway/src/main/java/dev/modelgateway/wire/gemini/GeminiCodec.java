package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.StreamDecoder;
import dev.modelgateway.wire.VendorCodec;

import java.util.Map;

/** Native Gemini API (generativelanguage.googleapis.com). Base URL is the host. */
public final class GeminiCodec implements VendorCodec {
    private final boolean subsetSchemas;

    /** Sends tool and response schemas untouched as parametersJsonSchema/responseJsonSchema (Gemini 2.5+). */
    public GeminiCodec() {
        this(false);
    }

    /** @param subsetSchemas convert schemas to Google's OpenAPI subset for models without JSON Schema support */
    public GeminiCodec(boolean subsetSchemas) {
        this.subsetSchemas = subsetSchemas;
    }

    @Override
    public EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream) {
        GeminiRequestEncoder enc = new GeminiRequestEncoder(subsetSchemas);
        ObjectNode body = enc.encode(request, upstreamModel);
        String path = "/v1beta/models/" + upstreamModel + (stream ? ":streamGenerateContent?alt=sse" : ":generateContent");
        return new EncodedRequest(path, body, Map.of(), enc.warnings());
    }

    @Override
    public CanonicalResponse decodeResponse(JsonNode body) {
        return GeminiResponseDecoder.decode(body);
    }

    @Override
    public StreamDecoder newStreamDecoder() {
        return new GeminiStreamDecoder();
    }

    @Override
    public GatewayException decodeError(int httpStatus, String body) {
        return GeminiErrors.fromBody(httpStatus, body);
    }

    /** Gemini only dereferences its own file URIs (gs://, Files API) and YouTube; everything else is fetched first. */
    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        String u = media.url();
        return u != null && (u.startsWith("gs://") || u.startsWith("https://generativelanguage.googleapis.com/")
                || u.startsWith("https://www.youtube.com/") || u.startsWith("https://youtu.be/"));
    }
}
