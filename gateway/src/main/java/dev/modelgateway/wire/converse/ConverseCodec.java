package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.StreamDecoder;
import dev.modelgateway.wire.VendorCodec;
import dev.modelgateway.wire.bedrock.BedrockErrors;
import dev.modelgateway.wire.bedrock.BedrockModelId;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Bedrock Runtime's Converse and ConverseStream for one deployment (docs/clouds.md, "Converse"). The base URL is the
 * Bedrock Runtime endpoint ({@code https://bedrock-runtime.{region}.amazonaws.com}); the model id is in the path.
 * Stateless apart from the deployment's capabilities, so one instance serves all of its calls.
 */
public final class ConverseCodec implements VendorCodec {
    /** The vendor name of Converse blocks kept verbatim ({@link ContentBlock.VendorBlock}). */
    public static final String VENDOR = "converse";

    private final Capabilities capabilities;

    /** @param capabilities what the deployment's model takes: cache points, thinking modes, system entries in place */
    public ConverseCodec(Capabilities capabilities) {
        this.capabilities = capabilities;
    }

    @Override
    public EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream) {
        ConverseRequestEncoder enc = new ConverseRequestEncoder(capabilities);
        ObjectNode body = enc.encode(request);
        // the id as one path segment, encoded as the AWS SDK does (BedrockModelId; the SDK is the oracle)
        String path = "/model/" + BedrockModelId.pathSegment(upstreamModel) + (stream ? "/converse-stream" : "/converse");
        return new EncodedRequest(path, body, Map.of(), enc.warnings());
    }

    @Override
    public CanonicalResponse decodeResponse(JsonNode body) {
        return ConverseResponseDecoder.decode(body);
    }

    @Override
    public StreamDecoder newStreamDecoder() {
        return new ConverseStreamDecoder();
    }

    @Override
    public GatewayException decodeError(int httpStatus, String body) {
        return BedrockErrors.fromResponse(httpStatus, h -> null, body.getBytes(StandardCharsets.UTF_8), null);
    }

    /** Converse takes images and documents as bytes or from S3 only; every other URL is fetched by the gateway first. */
    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        return media.url() != null && media.url().startsWith("s3://");
    }
}
