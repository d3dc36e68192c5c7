package dev.modelgateway.wire.gemini;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.ToolCallIds;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.StreamDecoder;

import java.util.function.Consumer;

/**
 * Gemini SSE (one full-shape response per event, no terminator) → canonical events. Thought and text runs
 * become blocks; a function call arrives whole (name and args in one part) and becomes a complete tool-use
 * block, unless Vertex streams its arguments ({@code partialArgs}/{@code willContinue}), which are assembled
 * and emitted when the call completes. usageMetadata is cumulative: the last one wins; the first chunk's
 * prompt counters already go into {@code MessageStart} (vendor A reports input tokens there too).
 * A signature on a text part stays with its text block ({@link StreamEvent.TextStart}, {@link StreamEvent.SignatureDelta}).
 */
final class GeminiStreamDecoder implements StreamDecoder {
    private enum Run { NONE, TEXT, THINKING }

    private boolean started;
    private boolean finished;
    private String responseId;
    private int nextIndex;
    private int calls;
    private Run run = Run.NONE;
    private int runIndex = -1;
    private boolean runSigned;
    private String finishReason;
    private boolean blocked;
    private Usage usage = Usage.ZERO;
    /** A Vertex function call whose arguments are still streaming. */
    private int partialIndex = -1;
    private ObjectNode partialArgs;

    @Override
    public void decode(SseEvent event, Consumer<StreamEvent> out) {
        JsonNode n = Json.parseOrNull(event.dataArray(), event.dataOffset(), event.dataLength());
        if (n == null) throw GatewayException.of(ErrorKind.UPSTREAM, "unparseable upstream chunk: " + event.data());
        if (n.path("error").isObject()) throw GeminiErrors.fromError(0, n.path("error"));
        if (!started) {
            started = true;
            responseId = n.path("responseId").asText(null);
            Usage prompt = GeminiUsage.toCanonical(n.get("usageMetadata"));
            out.accept(new StreamEvent.MessageStart(responseId, n.path("modelVersion").asText(null),
                    new Usage(prompt.inputTokens(), prompt.cacheReadTokens(), 0, 0, 0, 0)));
        }
        if (n.path("usageMetadata").has("promptTokenCount")) usage = GeminiUsage.toCanonical(n.get("usageMetadata"));
        if (n.path("promptFeedback").hasNonNull("blockReason")) blocked = true;
        JsonNode candidate = n.path("candidates").path(0);
        for (JsonNode part : candidate.path("content").path("parts")) part(part, out);
        if (candidate.hasNonNull("finishReason")) finishReason = candidate.get("finishReason").asText();
    }

    private void part(JsonNode part, Consumer<StreamEvent> out) {
        String sig = part.path("thoughtSignature").asText(null);
        if (part.has("functionCall")) {
            functionCall(part.get("functionCall"), sig, out);
        } else if (part.path("thought").asBoolean(false)) {
            // One signature per thinking block: a second signed thought starts a new block.
            if (run == Run.THINKING && runSigned) switchRun(Run.NONE, out);
            switchRun(Run.THINKING, out);
            String text = part.path("text").asText("");
            if (!text.isEmpty()) out.accept(new StreamEvent.ReasoningDelta(runIndex, text));
            if (sig != null) {
                out.accept(new StreamEvent.SignatureDelta(runIndex, sig, SignatureOrigin.GEMINI));
                runSigned = true;
            }
        } else if (part.has("text")) {
            String text = part.get("text").asText();
            // One signature per text block: a second signed part starts a new block.
            if (sig != null && run == Run.TEXT && runSigned) switchRun(Run.NONE, out);
            boolean opens = run != Run.TEXT && (sig != null || !text.isEmpty());
            if (opens) switchRun(Run.TEXT, sig, out);
            if (!text.isEmpty()) out.accept(new StreamEvent.TextDelta(runIndex, text));
            if (sig != null) {
                // The text's own signature, never a block of its own (that would split or trail the text):
                // on TextStart when the signed part opens the block, else after the text already streamed.
                if (!opens) out.accept(new StreamEvent.SignatureDelta(runIndex, sig, SignatureOrigin.GEMINI));
                runSigned = true;
            }
        } else {
            switchRun(Run.NONE, out);
            int i = nextIndex++;
            out.accept(new StreamEvent.VendorBlockStart(i, (ObjectNode) part));
            out.accept(new StreamEvent.BlockStop(i));
        }
    }

    private void functionCall(JsonNode fc, String sig, Consumer<StreamEvent> out) {
        if (partialIndex >= 0) {
            if (fc.has("partialArgs")) {
                for (JsonNode pa : fc.get("partialArgs")) applyPartial(pa);
            }
            if (!fc.path("willContinue").asBoolean(false)) completePartial(out);
            return;
        }
        switchRun(Run.NONE, out);
        int i = nextIndex++;
        String id = fc.hasNonNull("id") ? fc.get("id").asText() : ToolCallIds.synthesize(responseId, calls);
        calls++;
        out.accept(new StreamEvent.ToolUseStart(i, id, fc.path("name").asText(), sig));
        if (fc.path("willContinue").asBoolean(false)) {
            partialIndex = i;
            partialArgs = JsonNodeFactory.instance.objectNode();
            return;
        }
        out.accept(new StreamEvent.ToolArgumentsDelta(i, ToolArguments.toText(fc.get("args"))));
        out.accept(new StreamEvent.BlockStop(i));
    }

    /** Applies one {@code {jsonPath:"$.a.b", stringValue|numberValue|boolValue|nullValue}} fragment. */
    private void applyPartial(JsonNode pa) {
        String path = pa.path("jsonPath").asText("$");
        String[] keys = path.startsWith("$.") ? path.substring(2).split("\\.") : new String[0];
        if (keys.length == 0) return;
        ObjectNode cur = partialArgs;
        for (int k = 0; k < keys.length - 1; k++) {
            cur = cur.has(keys[k]) && cur.get(keys[k]).isObject() ? (ObjectNode) cur.get(keys[k]) : cur.putObject(keys[k]);
        }
        String leaf = keys[keys.length - 1];
        if (pa.has("stringValue")) {
            cur.put(leaf, cur.path(leaf).asText("") + pa.get("stringValue").asText());
        } else if (pa.has("numberValue")) {
            cur.set(leaf, pa.get("numberValue"));
        } else if (pa.has("boolValue")) {
            cur.set(leaf, pa.get("boolValue"));
        } else if (pa.has("nullValue")) {
            cur.putNull(leaf);
        } else if (pa.has("listValue") && pa.get("listValue").isArray()) {
            cur.set(leaf, (ArrayNode) pa.get("listValue"));
        }
    }

    private void completePartial(Consumer<StreamEvent> out) {
        out.accept(new StreamEvent.ToolArgumentsDelta(partialIndex, ToolArguments.toText(partialArgs)));
        out.accept(new StreamEvent.BlockStop(partialIndex));
        partialIndex = -1;
        partialArgs = null;
    }

    private void switchRun(Run next, Consumer<StreamEvent> out) {
        switchRun(next, null, out);
    }

    /** @param textSignature the Gemini signature of the text part that opens a text run, or null */
    private void switchRun(Run next, String textSignature, Consumer<StreamEvent> out) {
        if (run == next) return;
        if (run != Run.NONE) out.accept(new StreamEvent.BlockStop(runIndex));
        run = next;
        runSigned = false;
        if (next == Run.NONE) return;
        runIndex = nextIndex++;
        out.accept(next == Run.TEXT ? new StreamEvent.TextStart(runIndex, textSignature)
                : new StreamEvent.ThinkingStart(runIndex, SignatureOrigin.GEMINI));
    }

    @Override
    public void end(Consumer<StreamEvent> out) {
        if (finished || !started) return;
        finished = true;
        if (partialIndex >= 0) completePartial(out);
        switchRun(Run.NONE, out);
        StopReason reason = blocked && finishReason == null ? StopReason.REFUSAL : GeminiFinishReasons.of(finishReason, calls > 0);
        out.accept(new StreamEvent.MessageDelta(reason, null, usage));
        out.accept(new StreamEvent.MessageStop());
    }
}
