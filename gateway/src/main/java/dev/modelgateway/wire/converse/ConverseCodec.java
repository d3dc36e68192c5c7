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
        String path = "/model/" + modelPath(upstreamModel) + (stream ? "/converse-stream" : "/converse");
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
        return ConverseErrors.fromBody(httpStatus, body);
    }

    /** Converse takes images and documents as bytes or from S3 only; every other URL is fetched by the gateway first. */
    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        return media.url() != null && media.url().startsWith("s3://");
    }

    /**
     * The model id as one path segment, encoded as the AWS SDK encodes it: every byte outside the unreserved
     * {@code A-Za-z0-9-_.~} percent-encoded in upper-case hex, so an ARN's {@code :} and {@code /} become {@code %3A}
     * and {@code %2F} (the SDK is the oracle: ConverseSdkOracleTest). The request is signed over this path as sent.
     */
    static String modelPath(String modelId) {
        StringBuilder out = new StringBuilder(modelId.length() + 16);
        for (byte b : modelId.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            boolean unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~';
            if (unreserved) out.append((char) c);
            else out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                    .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
        }
        return out.toString();
    }
}
