package dev.modelgateway.wire.bedrock;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.StreamDecoder;
import dev.modelgateway.wire.VendorCodec;
import dev.modelgateway.wire.anthropic.AnthropicCodec;
import dev.modelgateway.wire.anthropic.CloudCapabilities;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Vendor A's models on Bedrock's InvokeModel for the translated path: vendor A's own encoding, held to the
 * deployment's declared capabilities and moved onto Invoke by {@link BedrockInvoke}; answers are vendor A's JSON, and
 * streams vendor A's SSE once the transport edge has unwrapped the event stream ({@link EventStreamSse}).
 */
public final class BedrockInvokeCodec implements VendorCodec {
    private static final AnthropicCodec ANTHROPIC = new AnthropicCodec();
    private final Capabilities capabilities;
    private final String region;

    public BedrockInvokeCodec(Capabilities capabilities, String region) {
        this.capabilities = capabilities;
        this.region = region;
    }

    @Override
    public EncodedRequest encodeRequest(CanonicalRequest request, String upstreamModel, boolean stream) {
        EncodedRequest direct = ANTHROPIC.encodeRequest(request, upstreamModel, stream);
        List<String> warnings = new ArrayList<>(direct.warnings());
        warnings.addAll(CloudCapabilities.apply(direct.body(), capabilities));
        Map<String, String> headers = new HashMap<>(direct.headers());
        String beta = headers.remove("anthropic-beta");
        headers.remove("anthropic-version");
        BedrockInvoke.adapt(direct.body(), beta);
        return new EncodedRequest(BedrockInvoke.path(upstreamModel, stream), direct.body(), headers, warnings);
    }

    @Override
    public CanonicalResponse decodeResponse(JsonNode body) {
        return ANTHROPIC.decodeResponse(body);
    }

    @Override
    public StreamDecoder newStreamDecoder() {
        return ANTHROPIC.newStreamDecoder();
    }

    /** Bedrock's errors name their type in a header the codec does not see: the body's type and message suffice here. */
    @Override
    public GatewayException decodeError(int httpStatus, String body) {
        return BedrockErrors.fromResponse(httpStatus, h -> null, body.getBytes(StandardCharsets.UTF_8), region);
    }

    /** Bedrock's InvokeModel takes images and documents as base64 only (Bedrock User Guide, "Anthropic Claude Messages API"). */
    @Override
    public boolean canForwardUrl(ContentBlock.Media media) {
        return false;
    }
}
