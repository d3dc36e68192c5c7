package dev.modelgateway.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The translated streams' frames, written straight to bytes around envelopes serialised once per stream, are
 * exactly Jackson's compact serialisation of each frame's JSON, whatever the text carries (quotes, escapes,
 * control characters, non-ASCII, emoji as UTF-8); a lone surrogate stays a valid JSON escape.
 */
class StreamEncoderFramesTest {
    private static final List<String> TEXTS = List.of("plain", "quote \" and \\ backslash", "lines\n\ttab\r\u0001\u001f\u007f",
            "héllo 日本 🌍 \u2028", "</script>");
    private static final CanonicalRequest REQUEST = CanonicalRequest.builder(UnmappedFields.CHAT).includeUsage(true).build();

    @Test
    void chatFramesAreJacksonsSerialisationOfTheirChunks() {
        for (SseEvent frame : frames(new ChatInbound(), "id \"q\" é")) {
            if (frame.data().equals("[DONE]")) continue;
            assertThat(frame.data()).isEqualTo(reserialised(frame));
        }
    }

    @Test
    void messagesFramesAreJacksonsSerialisationOfTheirEvents() {
        for (SseEvent frame : frames(new MessagesInbound(), "msg_1")) assertThat(frame.data()).isEqualTo(reserialised(frame));
    }

    @Test
    void everyTextArrivesAsItWasSent() {
        List<SseEvent> chat = frames(new ChatInbound(), "c1");
        assertThat(chat.stream().filter(f -> !f.data().equals("[DONE]")).map(f -> Fixtures.parse(f.data()).at("/choices/0/delta"))
                .filter(d -> !d.has("role") && (d.has("content") || d.has("reasoning_content"))).map(d -> d.path("reasoning_content").asText(d.path("content").asText())))
                .containsExactlyElementsOf(expectedTexts());
        List<SseEvent> messages = frames(new MessagesInbound(), "msg_1");
        assertThat(messages.stream().filter(f -> "content_block_delta".equals(f.event())).map(f -> Fixtures.parse(f.data()).path("delta"))
                .map(d -> d.path("thinking").asText(d.path("text").asText())))
                .containsExactlyElementsOf(expectedTexts());
    }

    @Test
    void aLoneSurrogateIsEscapedNotLost() {
        String lone = "half \ud83d emoji";
        for (InboundCodec inbound : List.of(new ChatInbound(), new MessagesInbound())) {
            StreamEncoder encoder = inbound.newStreamEncoder("m", REQUEST);
            Buffer out = Buffer.buffer();
            encoder.encode(new StreamEvent.MessageStart("id", "m", Usage.ZERO), out);
            encoder.encode(new StreamEvent.TextStart(0), out);
            encoder.encode(new StreamEvent.TextDelta(0, lone), out);
            assertThat(out.toString(StandardCharsets.UTF_8)).contains("half \\uD83D emoji");
            assertThat(Replay.frames(out.toString(StandardCharsets.UTF_8)).getLast().data()).contains("\\uD83D");
        }
    }

    private static List<String> expectedTexts() {
        return TEXTS.stream().flatMap(t -> List.of(t, t).stream()).toList();
    }

    /** Thinking then text, each delta once per text, through one inbound encoder. */
    private static List<SseEvent> frames(InboundCodec inbound, String id) {
        StreamEncoder encoder = inbound.newStreamEncoder("model \"x\" ü", REQUEST);
        Buffer out = Buffer.buffer();
        encoder.encode(new StreamEvent.MessageStart(id, "vendor-model", new Usage(3, 0, 0, 0, 0, 0)), out);
        for (String t : TEXTS) {
            encoder.encode(new StreamEvent.ThinkingStart(0, SignatureOrigin.NONE), out);
            encoder.encode(new StreamEvent.ReasoningDelta(0, t), out);
            encoder.encode(new StreamEvent.BlockStop(0), out);
            encoder.encode(new StreamEvent.TextStart(1), out);
            encoder.encode(new StreamEvent.TextDelta(1, t), out);
            encoder.encode(new StreamEvent.BlockStop(1), out);
        }
        encoder.encode(new StreamEvent.MessageDelta(StopReason.END_TURN, null, new Usage(3, 0, 0, 0, 7, 2)), out);
        encoder.encode(new StreamEvent.MessageStop(), out);
        return Replay.frames(out.toString(StandardCharsets.UTF_8));
    }

    private static String reserialised(SseEvent frame) {
        try {
            JsonNode tree = Fixtures.JSON.readTree(frame.data());
            return Fixtures.JSON.writeValueAsString(tree);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + frame.data(), e);
        }
    }
}
