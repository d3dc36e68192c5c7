package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;

import java.util.ArrayList;
import java.util.List;

/**
 * Vendor A's body for a deployment on a cloud, held to what the operator declared its model can do
 * (docs/clouds.md, "Capabilities"): cache markers only where prompt caching is declared (a model without it answers
 * 403 or 400 to them: LiteLLM PR #39210), a thinking mode only where declared (never rewritten: {@code adaptive}
 * turned into {@code enabled} breaks the newest models), and the declared output ceiling.
 */
public final class CloudCapabilities {
    private CloudCapabilities() {
    }

    /**
     * Applies the declaration to {@code body} (vendor A's messages body, edited in place) and returns the warnings of
     * what it dropped; throws a 400 naming the field for what cannot be served as asked.
     */
    public static List<String> apply(ObjectNode body, Capabilities caps) {
        List<String> warnings = new ArrayList<>();
        if (!caps.promptCache() && dropCacheMarkers(body) > 0) {
            warnings.add("cache_control dropped: this deployment does not declare prompt caching");
        }
        JsonNode thinking = body.get("thinking");
        if (thinking != null && thinking.isObject()) {
            String mode = thinking.path("type").asText("");
            if (("adaptive".equals(mode) || "enabled".equals(mode)) && !caps.thinking().contains(mode)) {
                throw GatewayException.of(ErrorKind.INVALID_REQUEST, "thinking.type: '" + mode + "' thinking is not available on"
                        + " this model's deployment (it declares " + (caps.thinking().isEmpty() ? "no thinking" : caps.thinking()) + ").")
                        .withParam("thinking.type");
            }
        }
        Integer ceiling = caps.maxOutputTokens();
        JsonNode max = body.get("max_tokens");
        if (ceiling != null && max != null && max.canConvertToLong() && max.asLong() > ceiling) {
            throw GatewayException.of(ErrorKind.INVALID_REQUEST, "max_tokens: " + max.asLong() + " is above this model's output"
                    + " limit of " + ceiling + " tokens.").withParam("max_tokens");
        }
        return warnings;
    }

    /** Removes every {@code cache_control} from the system prompt, the messages' blocks and the tools; how many. */
    static int dropCacheMarkers(ObjectNode body) {
        int dropped = 0;
        dropped += dropIn(body.get("system"));
        dropped += dropIn(body.get("tools"));
        JsonNode messages = body.get("messages");
        if (messages != null) for (JsonNode m : messages) dropped += dropIn(m.get("content"));
        return dropped;
    }

    private static int dropIn(JsonNode blocks) {
        if (blocks == null || !blocks.isArray()) return 0;
        int dropped = 0;
        for (JsonNode b : blocks) {
            if (b instanceof ObjectNode o && o.remove("cache_control") != null) dropped++;
            // a tool result's own content blocks may carry markers too
            if (b instanceof ObjectNode o && o.get("content") != null) dropped += dropIn(o.get("content"));
        }
        return dropped;
    }
}
