package dev.modelgateway.wire.converse;

import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.StreamAccumulator;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.StreamDecoder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ConverseStream's events as the transport hands them over (event name = {@code :event-type}, data = payload). The
 * sequences follow the API reference's ConverseStreamOutput: only a tool call opens with contentBlockStart, text and
 * reasoning begin with their first delta; usage comes in metadata after messageStop. Payloads carry the {@code p}
 * padding field Bedrock adds to event payloads, which a decoder must ignore.
 */
class ConverseStreamDecoderTest {
    private static final String P = ",\"p\":\"abcdefghijklmnopqrstuvwxyzABCDEFGH\"";

    @Test
    void textThenUsage() {
        List<StreamEvent> events = decode(
                ev("messageStart", "{\"role\":\"assistant\"" + P + "}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hello\"}" + P + "}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\" there\"}" + P + "}"),
                ev("contentBlockStop", "{\"contentBlockIndex\":0" + P + "}"),
                ev("messageStop", "{\"stopReason\":\"end_turn\"" + P + "}"),
                ev("metadata", "{\"usage\":{\"inputTokens\":11,\"outputTokens\":3,\"totalTokens\":1514,\"cacheReadInputTokens\":1500},"
                        + "\"metrics\":{\"latencyMs\":310}" + P + "}"));
        Usage usage = new Usage(11, 1500, 0, 0, 3, 0);
        assertThat(events).containsExactly(
                new StreamEvent.MessageStart(null, null, Usage.ZERO),
                new StreamEvent.TextStart(0),
                new StreamEvent.TextDelta(0, "Hello"),
                new StreamEvent.TextDelta(0, " there"),
                new StreamEvent.BlockStop(0),
                new StreamEvent.MessageDelta(StopReason.END_TURN, null, usage),
                new StreamEvent.MessageStop());
    }

    @Test
    void signedReasoningThenAToolCallWithPartialJson() {
        List<StreamEvent> events = decode(
                ev("messageStart", "{\"role\":\"assistant\"}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"text\":\"Need \"}}}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"text\":\"weather.\"}}}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"signature\":\"EqQBsig==\"}}}"),
                ev("contentBlockStop", "{\"contentBlockIndex\":0}"),
                ev("contentBlockStart", "{\"contentBlockIndex\":1,\"start\":{\"toolUse\":{\"toolUseId\":\"tooluse_7\",\"name\":\"weather\"}}}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":1,\"delta\":{\"toolUse\":{\"input\":\"{\\\"city\\\":\"}}}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":1,\"delta\":{\"toolUse\":{\"input\":\"\\\"Oslo\\\"}\"}}}"),
                ev("contentBlockStop", "{\"contentBlockIndex\":1}"),
                ev("messageStop", "{\"stopReason\":\"tool_use\"}"),
                ev("metadata", "{\"usage\":{\"inputTokens\":40,\"outputTokens\":25,\"totalTokens\":65}}"));
        assertThat(events).contains(
                new StreamEvent.ThinkingStart(0, SignatureOrigin.ANTHROPIC),
                new StreamEvent.SignatureDelta(0, "EqQBsig==", SignatureOrigin.ANTHROPIC),
                new StreamEvent.ToolUseStart(1, "tooluse_7", "weather", null),
                new StreamEvent.ToolArgumentsDelta(1, "{\"city\":"));
        CanonicalResponse r = accumulate(events);
        assertThat(r.content()).containsExactly(
                new ContentBlock.Thinking("Need weather.", "EqQBsig==", SignatureOrigin.ANTHROPIC),
                new ContentBlock.ToolUse("tooluse_7", "weather", "{\"city\":\"Oslo\"}", null, null));
        assertThat(r.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(r.usage()).isEqualTo(new Usage(40, 0, 0, 0, 25, 0));
    }

    /** A block with no canonical form (here a generated image) is not relayed; the blocks around it keep their order. */
    @Test
    void aBlockWithNoCanonicalFormIsSkipped() {
        CanonicalResponse r = accumulate(decode(
                ev("messageStart", "{\"role\":\"assistant\"}"),
                ev("contentBlockStart", "{\"contentBlockIndex\":0,\"start\":{\"image\":{\"format\":\"png\"}}}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"image\":{\"source\":{\"bytes\":\"iVBO\"}}}}"),
                ev("contentBlockStop", "{\"contentBlockIndex\":0}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":1,\"delta\":{\"text\":\"Here.\"}}"),
                ev("messageStop", "{\"stopReason\":\"end_turn\"}"),
                ev("metadata", "{\"usage\":{\"inputTokens\":1,\"outputTokens\":2,\"totalTokens\":3}}")));
        assertThat(r.content()).containsExactly(new ContentBlock.Text("Here."));
    }

    @Test
    void redactedReasoningIsOneBlock() {
        CanonicalResponse r = accumulate(decode(
                ev("messageStart", "{\"role\":\"assistant\"}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"reasoningContent\":{\"redactedContent\":\"cmVkYWN0ZWQ=\"}}}"),
                ev("contentBlockStop", "{\"contentBlockIndex\":0}"),
                ev("contentBlockDelta", "{\"contentBlockIndex\":1,\"delta\":{\"text\":\"Done.\"}}"),
                ev("contentBlockStop", "{\"contentBlockIndex\":1}"),
                ev("messageStop", "{\"stopReason\":\"end_turn\"}"),
                ev("metadata", "{\"usage\":{\"inputTokens\":1,\"outputTokens\":2,\"totalTokens\":3}}")));
        assertThat(r.content()).containsExactly(new ContentBlock.RedactedThinking("cmVkYWN0ZWQ="), new ContentBlock.Text("Done."));
    }

    @Test
    void anExceptionEventMidStreamIsTheVendorsError() {
        StreamDecoder d = new ConverseCodec(Capabilities.NATIVE).newStreamDecoder();
        List<StreamEvent> out = new ArrayList<>();
        d.decode(ev("messageStart", "{\"role\":\"assistant\"}"), out::add);
        d.decode(ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hel\"}}"), out::add);
        assertThatThrownBy(() -> d.decode(ev("modelStreamErrorException",
                "{\"message\":\"The model stream failed\",\"originalStatusCode\":500}"), out::add))
                .isInstanceOfSatisfying(GatewayException.class, e -> {
                    assertThat(e.status()).isEqualTo(502);
                    assertThat(e.getMessage()).isEqualTo("The model stream failed");
                    assertThat(e.code()).isEqualTo("modelStreamErrorException");
                });
        assertThatThrownBy(() -> d.decode(ev("throttlingException", "{\"message\":\"Too many tokens\"}"), out::add))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.status()).isEqualTo(429));
    }

    @Test
    void aStreamEndingAfterMessageStopWithoutMetadataStillEnds() {
        StreamDecoder d = new ConverseCodec(Capabilities.NATIVE).newStreamDecoder();
        List<StreamEvent> out = new ArrayList<>();
        d.decode(ev("messageStart", "{\"role\":\"assistant\"}"), out::add);
        d.decode(ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hi\"}}"), out::add);
        d.decode(ev("messageStop", "{\"stopReason\":\"max_tokens\"}"), out::add);
        d.end(out::add);
        assertThat(out.subList(2, out.size())).containsExactly(new StreamEvent.TextDelta(0, "Hi"), new StreamEvent.BlockStop(0),
                new StreamEvent.MessageDelta(StopReason.MAX_TOKENS, null, Usage.ZERO), new StreamEvent.MessageStop());
    }

    /** A stream cut before messageStop has no outcome to report: its blocks close and nothing pretends it ended. */
    @Test
    void aCutStreamReportsNoOutcome() {
        StreamDecoder d = new ConverseCodec(Capabilities.NATIVE).newStreamDecoder();
        List<StreamEvent> out = new ArrayList<>();
        d.decode(ev("messageStart", "{\"role\":\"assistant\"}"), out::add);
        d.decode(ev("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hi\"}}"), out::add);
        d.end(out::add);
        assertThat(out).last().isEqualTo(new StreamEvent.BlockStop(0));
    }

    private static List<StreamEvent> decode(SseEvent... events) {
        StreamDecoder d = new ConverseCodec(Capabilities.NATIVE).newStreamDecoder();
        List<StreamEvent> out = new ArrayList<>();
        for (SseEvent e : events) d.decode(e, out::add);
        d.end(out::add);
        return out;
    }

    private static CanonicalResponse accumulate(List<StreamEvent> events) {
        StreamAccumulator acc = new StreamAccumulator();
        events.forEach(acc::accept);
        return acc.response();
    }

    private static SseEvent ev(String name, String data) {
        return new SseEvent(name, data);
    }
}
