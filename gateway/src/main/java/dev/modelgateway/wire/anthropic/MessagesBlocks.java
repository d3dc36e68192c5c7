package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.wire.SignatureEnvelope;

import java.util.List;
import java.util.Set;

/** Canonical output blocks → Anthropic content blocks (shared by the response and stream encoders). */
final class MessagesBlocks {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private MessagesBlocks() { }

    /**
     * Appends a whole answer. A Gemini signature on a text part (canonically an empty signed thinking block
     * right after the text) goes in a {@code gemini-text:} carrier before the text instead: vendor A never
     * puts thinking after text, and Claude Code shows only the last block.
     */
    static void appendAll(List<ContentBlock> blocks, ArrayNode out) {
        for (int i = 0; i < blocks.size(); i++) {
            ContentBlock b = blocks.get(i);
            if (i + 1 < blocks.size() && SignatureEnvelope.isTextSignature(b, blocks.get(i + 1))) {
                out.addObject().put("type", "thinking").put("thinking", "")
                        .put("signature", SignatureEnvelope.sealText(((ContentBlock.Thinking) blocks.get(i + 1)).signature()));
                append(b, out);
                i++;
            } else {
                append(b, out);
            }
        }
    }

    static void append(ContentBlock b, ArrayNode out) {
        switch (b) {
            case ContentBlock.Text t -> {
                if (!t.text().isEmpty()) out.addObject().put("type", "text").put("text", t.text());
            }
            case ContentBlock.Thinking t -> out.addObject().put("type", "thinking").put("thinking", t.text())
                    .put("signature", SignatureEnvelope.seal(t.origin(), t.signature()));
            case ContentBlock.RedactedThinking r -> out.addObject().put("type", "redacted_thinking").put("data", r.data());
            case ContentBlock.ToolUse u -> {
                if (u.thoughtSignature() != null) out.add(carrier(u.thoughtSignature()));
                ObjectNode o = out.addObject().put("type", "tool_use").put("id", u.id()).put("name", u.name());
                o.set("input", ToolArguments.toObject(u.arguments()));
            }
            case ContentBlock.VendorBlock v -> {
                if (isReplayableVendorBlock(v)) out.add(v.raw());
            }
            // Generated media and tool results do not occur in Anthropic assistant output.
            case ContentBlock.Media ignored -> { }
            case ContentBlock.ToolResult ignored -> { }
        }
    }

    /**
     * Anthropic server-tool artefacts go back to messages clients verbatim; block types newer than the
     * documented output set (e.g. compaction) are left out because client SDKs reject unknown blocks.
     */
    static boolean isReplayableVendorBlock(ContentBlock.VendorBlock v) {
        return v.vendor().equals("anthropic") && OUTPUT_BLOCK_TYPES.contains(v.raw().path("type").asText());
    }

    static final Set<String> OUTPUT_BLOCK_TYPES = Set.of("server_tool_use", "web_search_tool_result",
            "web_fetch_tool_result", "code_execution_tool_result", "bash_code_execution_tool_result",
            "text_editor_code_execution_tool_result", "tool_search_tool_result", "container_upload");

    /** An empty thinking block carrying the Gemini signature of the functionCall that follows it. */
    static ObjectNode carrier(String geminiSignature) {
        return F.objectNode().put("type", "thinking").put("thinking", "")
                .put("signature", SignatureEnvelope.sealCall(geminiSignature));
    }
}
