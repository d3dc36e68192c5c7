package dev.modelgateway.wire;

import com.anthropic.helpers.MessageAccumulator;
import com.anthropic.models.messages.Message;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.openai.core.ObjectMappers;
import com.openai.helpers.ChatCompletionAccumulator;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.sse.SseParser;
import io.vertx.core.buffer.Buffer;

import java.util.ArrayList;
import java.util.List;

/** Drives recorded upstream streams through a vendor decoder and an inbound encoder, and reads the result with the official SDKs. */
public final class Replay {
    private Replay() { }

    /** Canonical events of a stream, plus the mid-stream error if the upstream sent one. */
    public record Decoded(List<StreamEvent> events, GatewayException error) { }

    public static Decoded decode(VendorCodec codec, String fixture) {
        StreamDecoder d = codec.newStreamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        try {
            for (SseEvent e : Fixtures.sse(fixture)) d.decode(e, events::add);
            d.end(events::add);
            return new Decoded(events, null);
        } catch (GatewayException e) {
            return new Decoded(events, e);
        }
    }

    /** The SSE text an inbound protocol emits for the decoded stream (with its error event if any). */
    public static String encode(InboundCodec inbound, CanonicalRequest request, Decoded decoded) {
        StreamEncoder enc = inbound.newStreamEncoder("public-model", request);
        Buffer out = Buffer.buffer();
        for (StreamEvent e : decoded.events()) enc.encode(e, out);
        if (decoded.error() != null) enc.encodeError(decoded.error(), out);
        return out.toString();
    }

    public static List<SseEvent> frames(String sse) {
        List<SseEvent> out = new ArrayList<>();
        SseParser p = new SseParser(out::add);
        p.feed(Buffer.buffer(sse));
        p.end();
        return out;
    }

    /** Accumulates chat chunks with openai-java; every chunk must validate against the SDK's model. */
    public static ChatCompletion chat(String sse) {
        return chatAccumulator(sse).chatCompletion();
    }

    public static ChatCompletionAccumulator chatAccumulator(String sse) {
        ChatCompletionAccumulator acc = ChatCompletionAccumulator.create();
        for (SseEvent e : frames(sse)) {
            if (e.event() != null) throw new AssertionError("chat streams carry no event names: " + e.event());
            if (e.data().equals("[DONE]")) continue;
            try {
                ChatCompletionChunk chunk = ObjectMappers.jsonMapper().readValue(e.data(), ChatCompletionChunk.class);
                acc.accumulate(chunk.validate());
            } catch (JsonProcessingException ex) {
                throw new AssertionError("unparseable chunk " + e.data(), ex);
            }
        }
        return acc;
    }

    /** Accumulates Anthropic events with anthropic-java; names must match payload types. */
    public static Message messages(String sse) {
        MessageAccumulator acc = MessageAccumulator.create();
        for (SseEvent e : frames(sse)) {
            // The SDK's SSE layer drops pings before parsing events.
            if ("ping".equals(e.event())) continue;
            try {
                RawMessageStreamEvent ev = com.anthropic.core.ObjectMappers.jsonMapper().readValue(e.data(), RawMessageStreamEvent.class);
                String type = Fixtures.parse(e.data()).path("type").asText();
                if (!type.equals(e.event())) throw new AssertionError("event name " + e.event() + " != type " + type);
                // anthropic-java 3.12 rejects real server-tool blocks (it requires `caller` and a narrower
                // `name` set than the API sends), so those starts are accumulated without validation.
                boolean serverTool = ev.isContentBlockStart()
                        && !Fixtures.parse(e.data()).path("content_block").path("type").asText().matches("text|thinking|redacted_thinking|tool_use");
                acc.accumulate(serverTool ? ev : ev.validate());
            } catch (JsonProcessingException ex) {
                throw new AssertionError("unparseable event " + e.data(), ex);
            }
        }
        return acc.message();
    }

    public static String anthropicJson(Object value) {
        try {
            return com.anthropic.core.ObjectMappers.jsonMapper().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    public static ChatCompletion chatBody(JsonNode body) {
        try {
            return ObjectMappers.jsonMapper().readValue(body.toString(), ChatCompletion.class).validate();
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    public static Message messagesBody(JsonNode body) {
        try {
            Message m = com.anthropic.core.ObjectMappers.jsonMapper().readValue(body.toString(), Message.class);
            // See messages(): server-tool blocks are not validated by this SDK version.
            m.usage().validate();
            for (var b : m.content()) {
                if (b.isText() || b.isThinking() || b.isRedactedThinking() || b.isToolUse()) b.validate();
            }
            return m;
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
