package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.buffer.Buffer;

import java.util.ArrayList;
import java.util.List;

/**
 * A planned {@link Answer} in Converse's shapes: the Converse response ({@code output.message}, {@code stopReason},
 * {@code usage}, {@code metrics}) and the ConverseStream events. Reasoning comes first as {@code reasoningContent}
 * (signed text, or redacted bytes under the {@code redacted} directive). Usage reports cache reads and writes when the
 * request had cache points; {@code inputTokens} is the uncached rest, as Bedrock reports it.
 */
final class ConverseAnswer {
    /** Bedrock pads event payloads with a field {@code p} of varying length; clients ignore it. */
    private static final String PADDING = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ";

    private final Answer a;
    private final CacheLedger.Usage usage;
    private final boolean cachePoints;
    private final boolean redacted;

    ConverseAnswer(Answer a, CacheLedger.Usage usage, boolean cachePoints, boolean redacted) {
        this.a = a;
        this.usage = usage;
        this.cachePoints = cachePoints;
        this.redacted = redacted;
    }

    ObjectNode response() {
        ObjectNode root = Json.obj();
        ObjectNode message = root.putObject("output").putObject("message").put("role", "assistant");
        ArrayNode content = message.putArray("content");
        if (a.hasThinking()) content.addObject().set("reasoningContent", reasoning());
        if (a.calls().isEmpty()) content.addObject().put("text", a.text());
        for (Answer.ToolCall call : a.calls()) {
            ObjectNode use = content.addObject().putObject("toolUse").put("toolUseId", call.id()).put("name", call.name());
            use.set("input", AnthropicApi.parseJson(call.arguments()));
        }
        root.put("stopReason", stopReason());
        root.set("usage", usage());
        root.putObject("metrics").put("latencyMs", 1);
        return root;
    }

    List<Buffer> frames() {
        List<Buffer> out = new ArrayList<>();
        out.add(event("messageStart", Json.obj().put("role", "assistant")));
        int index = 0;
        if (a.hasThinking()) {
            if (redacted) {
                out.add(delta(index, Json.obj().set("reasoningContent", reasoning())));
            } else {
                for (String piece : a.thinkingPieces()) out.add(delta(index, reasoningDelta("text", piece)));
                out.add(delta(index, reasoningDelta("signature", Signatures.sign(a.thinking()))));
            }
            out.add(stop(index++));
        }
        if (a.calls().isEmpty()) {
            // text blocks open with their first delta: Converse sends no contentBlockStart for them
            for (String piece : a.pieces()) out.add(delta(index, Json.obj().put("text", piece)));
            out.add(stop(index++));
        }
        for (Answer.ToolCall call : a.calls()) {
            ObjectNode start = Json.obj().put("contentBlockIndex", index);
            start.putObject("start").putObject("toolUse").put("toolUseId", call.id()).put("name", call.name());
            out.add(event("contentBlockStart", start));
            for (String fragment : AnswerPlanner.thirds(call.arguments())) {
                ObjectNode d = Json.obj();
                d.putObject("toolUse").put("input", fragment);
                out.add(delta(index, d));
            }
            out.add(stop(index++));
        }
        out.add(event("messageStop", Json.obj().put("stopReason", stopReason())));
        ObjectNode metadata = Json.obj();
        metadata.set("usage", usage());
        metadata.putObject("metrics").put("latencyMs", 1);
        out.add(event("metadata", metadata));
        return out;
    }

    private ObjectNode reasoning() {
        if (redacted) return Json.obj().put("redactedContent", Signatures.redact(a.thinking()));
        ObjectNode r = Json.obj();
        r.putObject("reasoningText").put("text", a.thinking()).put("signature", Signatures.sign(a.thinking()));
        return r;
    }

    private static ObjectNode reasoningDelta(String field, String value) {
        ObjectNode d = Json.obj();
        d.putObject("reasoningContent").put(field, value);
        return d;
    }

    private String stopReason() {
        return switch (a.stop()) {
            case END -> "end_turn";
            case MAX_TOKENS -> "max_tokens";
            case TOOL -> "tool_use";
        };
    }

    private ObjectNode usage() {
        int output = a.outputTokens();
        ObjectNode u = Json.obj().put("inputTokens", usage.uncached()).put("outputTokens", output)
                .put("totalTokens", usage.total() + output);
        if (!cachePoints) return u;
        int writes = usage.write5m() + usage.write1h();
        u.put("cacheReadInputTokens", usage.cacheRead()).put("cacheWriteInputTokens", writes);
        if (writes > 0) {
            ArrayNode details = u.putArray("cacheDetails");
            if (usage.write5m() > 0) details.addObject().put("ttl", "5m").put("inputTokens", usage.write5m());
            if (usage.write1h() > 0) details.addObject().put("ttl", "1h").put("inputTokens", usage.write1h());
        }
        return u;
    }

    private static Buffer delta(int index, ObjectNode delta) {
        ObjectNode o = Json.obj().put("contentBlockIndex", index);
        o.set("delta", delta);
        return event("contentBlockDelta", o);
    }

    private static Buffer stop(int index) {
        return event("contentBlockStop", Json.obj().put("contentBlockIndex", index));
    }

    private static Buffer event(String type, ObjectNode payload) {
        payload.put("p", PADDING);
        return ConverseFrames.event(type, Json.write(payload));
    }
}
