package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.config.CloudTarget;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.config.VendorEndpoint;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.anthropic.CloudCapabilities;
import dev.modelgateway.wire.bedrock.BedrockErrors;
import dev.modelgateway.wire.bedrock.BedrockInvoke;
import dev.modelgateway.wire.bedrock.BedrockInvokeCodec;
import dev.modelgateway.wire.vertex.VertexAnthropic;
import dev.modelgateway.wire.vertex.VertexAnthropicCodec;
import dev.modelgateway.wire.vertex.VertexErrors;
import dev.modelgateway.wire.vertex.VertexGeminiCodec;
import dev.modelgateway.wire.vertex.VertexLocation;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * How a deployment's cloud carries its vendor's wire format (docs/clouds.md): the translated path's codec for the
 * deployment, the native path's body moved onto the cloud's path, and the cloud's errors in the caller's shape. A
 * vendor's own API passes through unchanged.
 */
public final class CloudWire {
    private CloudWire() {
    }

    /** The translated path's codec for this deployment. */
    public static VendorCodec codec(VendorEndpoint e) {
        CloudTarget cloud = e.cloud();
        if (cloud == null) return Codecs.of(e.vendor());
        return switch (e.type()) {
            case BEDROCK -> e.converse() ? Codecs.converse(cloud.capabilities())
                    : new BedrockInvokeCodec(cloud.capabilities(), cloud.account().region());
            case VERTEX -> e.vendor() == Vendor.ANTHROPIC ? new VertexAnthropicCodec(location(cloud))
                    : new VertexGeminiCodec(location(cloud));
            default -> Codecs.of(e.vendor());
        };
    }

    /**
     * The native path's request on this deployment: {@code body} (vendor A's or vendor B's own, with the model id)
     * edited in place for the cloud, its path, the caller's headers left to send, and what was dropped.
     */
    public record Native(String path, Map<String, String> headers, List<String> warnings) {
    }

    public static Native nativeRequest(VendorEndpoint e, String path, ObjectNode body, Map<String, String> headers,
                                       String model, boolean stream) {
        CloudTarget cloud = e.cloud();
        if (cloud == null || e.vendor() != Vendor.ANTHROPIC) return new Native(path, headers, List.of());
        List<String> warnings = new ArrayList<>(CloudCapabilities.apply(body, cloud.capabilities()));
        return switch (e.type()) {
            case BEDROCK -> {
                Map<String, String> left = new java.util.LinkedHashMap<>(headers);
                String beta = null;
                for (String h : BedrockInvoke.HEADERS_IN_BODY) {
                    String v = left.remove(h);
                    if ("anthropic-beta".equals(h)) beta = v;
                }
                BedrockInvoke.adapt(body, beta);
                yield new Native(BedrockInvoke.path(model, stream), left, warnings);
            }
            case VERTEX -> new Native(VertexAnthropic.prepare(body, location(cloud), model), headers, warnings);
            default -> new Native(path, headers, warnings);
        };
    }

    /**
     * A cloud's non-2xx answer on the native path as the caller's error; null when the cloud answered in the vendor's
     * own shape, which is relayed as sent.
     */
    public static GatewayException nativeError(VendorEndpoint e, int status, Function<String, String> header, byte[] body) {
        CloudTarget cloud = e.cloud();
        if (cloud == null) return null;
        return switch (e.type()) {
            case BEDROCK -> BedrockErrors.fromResponse(status, header, body, cloud.account().region());
            case VERTEX -> {
                String text = new String(body, StandardCharsets.UTF_8);
                yield VertexErrors.isAnthropicShape(text) ? null : VertexErrors.decode(status, text, location(cloud), null);
            }
            default -> null;
        };
    }

    private static VertexLocation location(CloudTarget cloud) {
        return new VertexLocation(cloud.account().project(), cloud.account().location());
    }
}
