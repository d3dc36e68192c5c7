package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.wire.OperationAnswer;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.VendorErrors;
import dev.modelgateway.wire.VendorOperation;

import java.util.Map;
import java.util.Set;

/**
 * Vendor A's exact token count ({@code POST /v1/messages/count_tokens}) of a messages body: the fields it accepts,
 * {@code model} rewritten, the caller's {@code anthropic-beta} passed on; its {@code {"input_tokens":N}} goes back
 * as it came. Counting consumes no tokens.
 */
public final class AnthropicTokenCount {
    /** The fields vendor A's count endpoint accepts; the others of a messages body are dropped. */
    public static final Set<String> COUNTED_FIELDS = Set.of("model", "messages", "system", "tools", "tool_choice", "thinking",
            "mcp_servers", "output_config");
    private static final OperationAnswer AS_SENT = new OperationAnswer.Json(body -> new OperationAnswer.Decoded(body, Usage.ZERO));

    private AnthropicTokenCount() {
    }

    /** @param counted the caller's body reduced to {@link #COUNTED_FIELDS}; @param beta the caller's header, or null */
    public static VendorOperation operation(ObjectNode counted, String beta) {
        Map<String, String> headers = beta == null ? Map.of() : Map.of("anthropic-beta", beta);
        return new VendorOperation(upstreamModel -> OperationRequest.json("/v1/messages/count_tokens",
                counted.deepCopy().put("model", upstreamModel), headers), AS_SENT, VendorErrors.AS_SENT);
    }
}
