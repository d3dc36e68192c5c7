package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.StreamDecoder;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * chat.completion.chunk stream → canonical events. Reasoning and text runs become blocks that close when the
 * content type changes (a chunk may carry both: both are kept, reasoning first). Each tool_calls index opens
 * a tool-use block that stays open until the end, because parallel calls' fragments may interleave. The
 * finish_reason is held until the trailing usage chunk ({@code [DONE]} or end of stream).
 */
public final class ChatCompletionsStreamDecoder implements StreamDecoder {
    private enum Run { NONE, TEXT, THINKING }

    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    /** The chunk being decoded (one reader per stream, reused for each chunk). */
    private final ChatChunk chunk = new ChatChunk();

    private boolean started;
    private boolean finished;
    private int nextIndex;
    private Run run = Run.NONE;
    private int runIndex = -1;
    private final Map<Integer, Integer> tools = new LinkedHashMap<>();
    private String finishReason;
    private boolean refused;
    private Usage usage = Usage.ZERO;

    @Override
    public void decode(SseEvent event, Consumer<StreamEvent> out) {
        if (isDone(event)) {
            finish(out);
            return;
        }
        if (!chunk.read(event.dataArray(), event.dataOffset(), event.dataLength(), !started)) {
            // not in the usual shape (an error, a field of an odd type): the tree says what it is
            String data = event.data().trim();
            JsonNode n = ToolArguments.parseOrNull(data);
            if (n == null) throw GatewayException.of(ErrorKind.UPSTREAM, "unparseable upstream chunk: " + data);
            if (n.path("error").isObject()) throw ChatCompletionsErrors.fromError(0, n.path("error"));
            chunk.read(n);
        }
        if (!started) {
            started = true;
            out.accept(new StreamEvent.MessageStart(chunk.id, chunk.model, Usage.ZERO));
        }
        if (chunk.usage != null) usage = ChatUsage.toCanonical(chunk.usage);
        for (ChatChunk.Choice choice : chunk.choices) {
            String reasoning = orEmpty(choice.reasoning());
            if (!reasoning.isEmpty()) {
                switchRun(Run.THINKING, out);
                out.accept(new StreamEvent.ReasoningDelta(runIndex, reasoning));
            }
            String text = orEmpty(choice.content());
            String refusal = orEmpty(choice.refusal());
            if (!refusal.isEmpty()) {
                refused = true;
                text = text + refusal;
            }
            if (!text.isEmpty()) {
                switchRun(Run.TEXT, out);
                out.accept(new StreamEvent.TextDelta(runIndex, text));
            }
            JsonNode calls = choice.toolCalls();
            if (calls != null) for (int pos = 0; pos < calls.size(); pos++) toolCall(calls.get(pos), pos, out);
            if (choice.finishReason() != null) finishReason = choice.finishReason();
        }
    }

    /** {@code [DONE]}, give or take surrounding white space. */
    private static boolean isDone(SseEvent event) {
        byte[] b = event.dataArray();
        int from = event.dataOffset();
        int to = from + event.dataLength();
        while (from < to && (b[from] & 0xff) <= ' ') from++;
        while (to > from && (b[to - 1] & 0xff) <= ' ') to--;
        return Arrays.equals(b, from, to, DONE, 0, DONE.length);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private void toolCall(JsonNode tc, int position, Consumer<StreamEvent> out) {
        // Gemini's compat endpoint may omit index: fall back to the position in the array.
        int upstream = tc.has("index") ? tc.get("index").asInt() : position;
        JsonNode fn = tc.path("function");
        Integer idx = tools.get(upstream);
        if (idx == null) {
            switchRun(Run.NONE, out);
            idx = nextIndex++;
            tools.put(upstream, idx);
            String sig = tc.path("extra_content").path("google").path("thought_signature").asText(null);
            out.accept(new StreamEvent.ToolUseStart(idx, tc.path("id").asText(""), fn.path("name").asText(""), sig));
        }
        // The same chunk may carry the name and the complete arguments: keep them.
        String args = fn.path("arguments").asText("");
        if (!args.isEmpty()) out.accept(new StreamEvent.ToolArgumentsDelta(idx, args));
    }

    private void switchRun(Run next, Consumer<StreamEvent> out) {
        if (run == next) return;
        if (run != Run.NONE) out.accept(new StreamEvent.BlockStop(runIndex));
        run = next;
        if (next == Run.NONE) return;
        runIndex = nextIndex++;
        out.accept(next == Run.TEXT ? new StreamEvent.TextStart(runIndex)
                : new StreamEvent.ThinkingStart(runIndex, SignatureOrigin.NONE));
    }

    private void finish(Consumer<StreamEvent> out) {
        if (finished || !started) return;
        finished = true;
        switchRun(Run.NONE, out);
        for (Integer idx : tools.values()) out.accept(new StreamEvent.BlockStop(idx));
        out.accept(new StreamEvent.MessageDelta(ChatFinishReasons.toCanonical(finishReason, !tools.isEmpty(), refused), null, usage));
        out.accept(new StreamEvent.MessageStop());
    }

    @Override
    public void end(Consumer<StreamEvent> out) {
        finish(out);
    }
}
