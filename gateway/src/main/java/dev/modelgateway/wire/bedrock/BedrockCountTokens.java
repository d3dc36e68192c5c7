package dev.modelgateway.wire.bedrock;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.config.Vendor;
import dev.modelgateway.json.Json;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorJson;
import dev.modelgateway.wire.VendorOperation;
import io.vertx.core.buffer.Buffer;

import java.util.Base64;

/**
 * Bedrock's exact count of a messages body's input tokens: {@code POST /model/{modelId}/count-tokens} with
 * {@code {"input":{"invokeModel":{"body":"<base64 of the Invoke body>"}}}}, answered {@code {"inputTokens":N}} (Bedrock
 * API reference, "CountTokens"), given back to the caller as vendor A's {@code {"input_tokens":N}}. CountTokens takes
 * a foundation model's bare id (a profile's is refused), so the deployment's id is reduced to the model it names.
 * Counting consumes no tokens.
 */
public final class BedrockCountTokens {
    private BedrockCountTokens() {
    }

    /**
     * The foundation model to count with: the one the deployment's id names, else its declared {@code base_model};
     * null when neither tells (then the gateway counts locally).
     */
    public static String countingModel(BedrockModelId id, Capabilities declared) {
        if (id.foundationModel() != null) return id.foundationModel();
        if (declared == null || declared.baseModel() == null) return null;
        try {
            return BedrockModelId.parse(declared.baseModel()).foundationModel();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * @param counted the caller's messages body reduced to the counted fields (wire/anthropic/AnthropicTokenCount's)
     * @param beta    the caller's {@code anthropic-beta} header, or null
     * @return the operation; its encoder takes the model to count with ({@link #countingModel}) or the deployment's id
     */
    public static VendorOperation operation(ObjectNode counted, String beta) {
        OperationAnswer answer = new OperationAnswer.Json(vendorBody -> {
            long tokens = VendorJson.object(vendorBody, Vendor.ANTHROPIC).path("inputTokens").asLong(0);
            return new OperationAnswer.Decoded(Buffer.buffer("{\"input_tokens\":" + tokens + "}"), Usage.ZERO);
        });
        return new VendorOperation(model -> request(model, counted, beta), answer, BedrockErrors.operationErrors());
    }

    static OperationRequest request(String model, ObjectNode counted, String beta) {
        String counting = model;
        try {
            BedrockModelId id = BedrockModelId.parse(model);
            if (id.foundationModel() != null) counting = id.foundationModel();
        } catch (IllegalArgumentException e) {
            // not an id Bedrock knows: sent as it is, Bedrock's refusal says why
        }
        ObjectNode invoke = BedrockInvoke.adapt(counted.deepCopy(), beta);
        // Bedrock validates the Invoke body it counts, and vendor A's body on Invoke requires max_tokens (which the
        // count endpoint's body has not); it does not change the input's count.
        if (!invoke.has("max_tokens")) invoke.put("max_tokens", 1);
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.putObject("input").putObject("invokeModel").put("body", Base64.getEncoder().encodeToString(Json.toBuffer(invoke).getBytes()));
        return OperationRequest.json("/model/" + BedrockModelId.encode(counting) + "/count-tokens", body);
    }
}
