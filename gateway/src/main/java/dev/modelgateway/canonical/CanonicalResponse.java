package dev.modelgateway.canonical;

import java.util.List;

/**
 * One completed assistant turn.
 *
 * @param stopSequence the matched stop sequence when {@code stopReason} is STOP_SEQUENCE and the vendor said which
 */
public record CanonicalResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                                String stopSequence, Usage usage) {
    public CanonicalResponse {
        content = List.copyOf(content);
        if (usage == null) usage = Usage.ZERO;
    }

    public boolean hasToolUse() {
        return content.stream().anyMatch(b -> b instanceof ContentBlock.ToolUse);
    }
}
