package dev.modelgateway.wire.openai.responses;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.SignatureEnvelope;
import dev.modelgateway.wire.SseFrames;
import dev.modelgateway.wire.StreamEncoder;
import io.vertx.core.buffer.Buffer;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Canonical stream → Responses SSE events, each named and numbered ({@code sequence_number}): created,
 * in_progress, per-item added/delta/done events, and one terminal {@code response.completed} or
 * {@code response.incomplete} carrying the whole response. Canonical blocks map one to one onto output
 * items, so argument deltas of parallel tool calls may interleave as they do upstream.
 * Gemini signatures on a call or a text go in a complete reasoning item right before that item (as in the
 * JSON answer); one that arrives once its text has begun is held and goes in a reasoning item before the next
 * item, or is dropped at the end rather than trailing the message (Codex shows only the last item; Gemini does
 * not validate signatures on text parts).
 */
final class ResponsesStreamEncoder implements StreamEncoder {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final String responseId;
    private final String model;
    private final long createdAt;
    private final Consumer<ObjectNode> onCompleted;
    private final ItemIds ids;
    private final ToolNamespaces namespaces;
    private final ArrayNode output = F.arrayNode();
    private final Map<Integer, OpenItem> open = new HashMap<>();
    private int sequence;
    private StopReason stop = StopReason.END_TURN;
    private Usage usage = Usage.ZERO;
    private boolean started;
    /** The Gemini signature of a message whose text had already begun when it arrived. */
    private String heldTextSignature;

    /** The output item a canonical block becomes (redacted thinking and vendor blocks have none). */
    private enum ItemType { MESSAGE, REASONING, FUNCTION_CALL }

    /** One output item being streamed: its position, id, and what its done event needs. */
    private static final class OpenItem {
        final ItemType type;
        final int outputIndex;
        final String id;
        final StringBuilder text = new StringBuilder();
        final String callId;
        final String name;
        String signature;
        SignatureOrigin origin;

        OpenItem(ItemType type, int outputIndex, String id, String callId, String name) {
            this.type = type;
            this.outputIndex = outputIndex;
            this.id = id;
            this.callId = callId;
            this.name = name;
        }
    }

    ResponsesStreamEncoder(String responseId, String model, long createdAt, ToolNamespaces namespaces,
                           Consumer<ObjectNode> onCompleted) {
        this.responseId = responseId;
        this.model = model;
        this.createdAt = createdAt;
        this.onCompleted = onCompleted;
        this.ids = new ItemIds(responseId);
        this.namespaces = namespaces;
    }

    @Override
    public void encode(StreamEvent event, Buffer out) {
        switch (event) {
            case StreamEvent.MessageStart s -> start(out);
            case StreamEvent.BlockStart b -> blockStart(b, out);
            case StreamEvent.TextDelta d -> delta(d.index(), d.text(), "response.output_text.delta", out);
            case StreamEvent.ReasoningDelta d -> delta(d.index(), d.text(), "response.reasoning_summary_text.delta", out);
            case StreamEvent.ToolArgumentsDelta d -> delta(d.index(), d.fragment(), "response.function_call_arguments.delta", out);
            case StreamEvent.SignatureDelta d -> {
                OpenItem item = open.get(d.index());
                if (item != null && item.type == ItemType.MESSAGE) {
                    heldTextSignature = d.signature();
                } else if (item != null) {
                    item.signature = item.signature == null ? d.signature() : item.signature + d.signature();
                    item.origin = d.origin();
                }
            }
            case StreamEvent.BlockStop s -> blockStop(s.index(), out);
            case StreamEvent.MessageDelta d -> {
                if (d.stopReason() != null) stop = d.stopReason();
                if (d.usage() != null) usage = d.usage();
            }
            case StreamEvent.MessageStop s -> {
                start(out);
                ObjectNode response = ResponseItems.response(responseId, model, createdAt, output, stop, usage);
                String type = ResponseItems.incomplete(stop) ? "response.incomplete" : "response.completed";
                emit(type, F.objectNode().set("response", response), out);
                onCompleted.accept(response);
            }
            case StreamEvent.VendorDelta d -> { }
            case StreamEvent.Ping p -> { }
        }
    }

    private void start(Buffer out) {
        if (started) return;
        started = true;
        ObjectNode skeleton = ResponseItems.response(responseId, model, createdAt, null, null, null);
        emit("response.created", F.objectNode().set("response", skeleton), out);
        emit("response.in_progress", F.objectNode().set("response", skeleton.deepCopy()), out);
    }

    private void blockStart(StreamEvent.BlockStart b, Buffer out) {
        start(out);
        switch (b) {
            case StreamEvent.TextStart t when t.thoughtSignature() != null -> carrier(SignatureEnvelope.sealText(t.thoughtSignature()), out);
            case StreamEvent.ToolUseStart t when t.thoughtSignature() != null -> carrier(SignatureEnvelope.sealCall(t.thoughtSignature()), out);
            case StreamEvent.RedactedThinkingStart _, StreamEvent.VendorBlockStart _ -> { }
            default -> flushHeldTextSignature(out);
        }
        OpenItem item = switch (b) {
            case StreamEvent.TextStart _ -> new OpenItem(ItemType.MESSAGE, output.size(), ids.next("msg"), null, null);
            case StreamEvent.ThinkingStart _ -> new OpenItem(ItemType.REASONING, output.size(), ids.next("rs"), null, null);
            case StreamEvent.ToolUseStart t ->
                    new OpenItem(ItemType.FUNCTION_CALL, output.size(), ids.next("fc"), t.id(), t.name());
            case StreamEvent.RedactedThinkingStart _, StreamEvent.VendorBlockStart _ -> null; // no Responses equivalent
        };
        if (item == null) return;
        if (b instanceof StreamEvent.ThinkingStart t) item.origin = t.origin();
        open.put(b.index(), item);
        output.add(F.nullNode()); // reserves the output index; the done item replaces it
        ObjectNode added = switch (item.type) {
            case MESSAGE -> ResponseItems.message(item.id, "in_progress", F.arrayNode());
            case REASONING -> ResponseItems.reasoning(item.id, null, null, null);
            case FUNCTION_CALL -> ResponseItems.functionCall(item.id, item.callId, item.name, "", "in_progress", namespaces);
        };
        emit("response.output_item.added", F.objectNode().put("output_index", item.outputIndex).set("item", added), out);
        if (item.type == ItemType.MESSAGE) {
            emit("response.content_part.added", itemEvent(item).put("content_index", 0).set("part", ResponseItems.outputText("")), out);
        } else if (item.type == ItemType.REASONING) {
            emit("response.reasoning_summary_part.added", itemEvent(item).put("summary_index", 0)
                    .set("part", F.objectNode().put("type", "summary_text").put("text", "")), out);
        }
    }

    /** A complete reasoning item carrying only a sealed Gemini signature. */
    private void carrier(String sealed, Buffer out) {
        flushHeldTextSignature(out);
        int index = output.size();
        ObjectNode item = ResponseItems.reasoning(ids.next("rs"), null, sealed);
        output.add(item);
        emit("response.output_item.added", F.objectNode().put("output_index", index).set("item", item), out);
        emit("response.output_item.done", F.objectNode().put("output_index", index).set("item", item.deepCopy()), out);
    }

    /** Another item follows a message whose signature was held: the signature goes right after that message. */
    private void flushHeldTextSignature(Buffer out) {
        if (heldTextSignature == null) return;
        String signature = heldTextSignature;
        heldTextSignature = null;
        carrier(SignatureEnvelope.seal(SignatureOrigin.GEMINI, signature), out);
    }

    private void delta(int index, String text, String type, Buffer out) {
        OpenItem item = open.get(index);
        if (item == null || text == null || text.isEmpty()) return;
        item.text.append(text);
        ObjectNode e = itemEvent(item);
        if (item.type == ItemType.MESSAGE) e.put("content_index", 0).putArray("logprobs");
        if (item.type == ItemType.REASONING) e.put("summary_index", 0);
        emit(type, e.put("delta", text), out);
    }

    private void blockStop(int index, Buffer out) {
        OpenItem item = open.remove(index);
        if (item == null) return;
        String text = item.text.toString();
        ObjectNode done = switch (item.type) {
            case MESSAGE -> {
                ObjectNode e = itemEvent(item).put("content_index", 0).put("text", text);
                e.putArray("logprobs");
                emit("response.output_text.done", e, out);
                emit("response.content_part.done", itemEvent(item).put("content_index", 0).set("part", ResponseItems.outputText(text)), out);
                yield ResponseItems.message(item.id, "completed", F.arrayNode().add(ResponseItems.outputText(text)));
            }
            case REASONING -> {
                emit("response.reasoning_summary_text.done", itemEvent(item).put("summary_index", 0).put("text", text), out);
                emit("response.reasoning_summary_part.done", itemEvent(item).put("summary_index", 0)
                        .set("part", F.objectNode().put("type", "summary_text").put("text", text)), out);
                yield ResponseItems.reasoning(item.id, text, item.origin, item.signature);
            }
            case FUNCTION_CALL -> {
                String args = text.isEmpty() ? "{}" : text;
                ToolNamespaces.Qualified q = namespaces.qualified(item.name);
                emit("response.function_call_arguments.done", itemEvent(item).put("name", q != null ? q.name() : item.name)
                        .put("arguments", args), out);
                yield ResponseItems.functionCall(item.id, item.callId, item.name, args, "completed", namespaces);
            }
        };
        output.set(item.outputIndex, done);
        emit("response.output_item.done", F.objectNode().put("output_index", item.outputIndex).set("item", done), out);
    }

    private static ObjectNode itemEvent(OpenItem item) {
        return F.objectNode().put("item_id", item.id).put("output_index", item.outputIndex);
    }

    private void emit(String type, ObjectNode payload, Buffer out) {
        ObjectNode event = F.objectNode().put("type", type);
        event.setAll(payload);
        event.put("sequence_number", sequence++);
        SseFrames.named(type, event, out);
    }

    /** The protocol's {@code error} event, then {@code response.failed} so that SDK accumulators terminate. */
    @Override
    public void encodeError(GatewayException e, Buffer out) {
        start(out);
        ObjectNode error = F.objectNode().put("code", ResponsesErrors.code(e)).put("message", e.getMessage());
        emit("error", F.objectNode().put("code", ResponsesErrors.code(e)).put("message", e.getMessage()).put("param", e.param()), out);
        ObjectNode failed = ResponseItems.response(responseId, model, createdAt, F.arrayNode(), null, usage);
        failed.put("status", "failed").set("error", error);
        emit("response.failed", F.objectNode().set("response", failed), out);
    }
}
