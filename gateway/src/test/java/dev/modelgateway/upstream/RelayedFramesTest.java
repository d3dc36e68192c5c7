package dev.modelgateway.upstream;

import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.sse.SseParser;
import dev.modelgateway.wire.CallerFrames;
import dev.modelgateway.wire.StreamTap;
import dev.modelgateway.wire.anthropic.AnthropicNativeTap;
import dev.modelgateway.wire.openai.chat.ChatNativeTap;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stream's relayed frames reach the caller as the same bytes whether they are forwarded from the upstream
 * read or copied, however the network splits the stream and whatever lies between the events; and a read of
 * nothing but relayable events is forwarded, not copied.
 */
class RelayedFramesTest {
    private static final String CHAT = """
            data: {"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}

            data: {"id":"c1","choices":[{"index":0,"delta":{"content":"héllo 🌍 日本"}}]}

            data: {"id":"c1","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":3,"total_tokens":14}}

            data: [DONE]

            """;
    /** What proxies and vendors also send: comments, other fields, CRLF, no space after the colon, data on two lines. */
    private static final String CHAT_UNUSUAL = ": keep-alive\n\n"
            + ": ping\ndata:{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n"
            + "event:named\ndata: {\"id\":\"c1\",\"choices\":[]}\n\n"
            + "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n"
            + "id: 7\ndata: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"b\"}}]}\n\n"
            + "data:{\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"c\"}}]}\n\n"
            + "data: {\"id\":\"c1\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"d\"}}]}\r\n\r\n"
            + "data: {\"id\":\"c1\",\n"
            + "data: \"choices\":[{\"index\":0,\"delta\":{\"content\":\"e\"}}]}\n\n"
            + ": between\n"
            + "data: {\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":1}}\n\n"
            + "data: [DONE]\n\n";
    private static final String MESSAGES = """
            event: message_start
            data: {"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":12,"output_tokens":1}}}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo"}}

            data: {"type":"content_block_stop","index":0}
            event: content_block_stop

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":9}}

            event: message_stop
            data: {"type":"message_stop"}

            """;

    @Test
    void theCallerGetsTheBytesACopyWouldGiveHoweverTheStreamIsSplit() {
        assertSameAsCopied(CHAT, () -> new ChatNativeTap(true));
        assertSameAsCopied(CHAT, () -> new ChatNativeTap(false)); // the usage chunk left out mid-read
        assertSameAsCopied(CHAT_UNUSUAL, () -> new ChatNativeTap(true));
        assertSameAsCopied(CHAT_UNUSUAL, () -> new ChatNativeTap(false));
        assertSameAsCopied(MESSAGES, () -> new AnthropicNativeTap("trace", id -> { }));
    }

    @Test
    void aReadOfRelayableEventsIsForwardedAsItCame() {
        Buffer read = Buffer.buffer(CHAT);
        RelayedFrames frames = new RelayedFrames();
        StreamTap tap = new ChatNativeTap(true);
        SseParser parser = new SseParser(e -> tap.onEvent(e, frames));
        frames.read(read);
        parser.feed(read);

        assertThat(frames.take()).isSameAs(read);
        assertThat(frames.take()).isNull();
    }

    @Test
    void whatTheTapWritesItselfFollowsTheEventsRelayedBeforeIt() {
        Buffer read = Buffer.buffer(": hello\n\n" + CHAT);
        RelayedFrames frames = new RelayedFrames();
        List<SseEvent> events = new ArrayList<>();
        SseParser parser = new SseParser(events::add);
        frames.read(read);
        parser.feed(read);
        frames.relay(events.get(0));
        frames.relay(events.get(1));
        frames.buffer().appendString("data: {\"error\":{}}\n\n");
        frames.relay(events.get(3));

        String first = CHAT.substring(0, CHAT.indexOf("data: {\"id\":\"c1\",\"choices\":[]"));
        assertThat(frames.take().toString(StandardCharsets.UTF_8))
                .isEqualTo(first + "data: {\"error\":{}}\n\n" + "data: [DONE]\n\n");
    }

    @Test
    void aRunNotTakenBeforeTheNextReadStaysFirst() {
        Buffer one = Buffer.buffer("data: 1\n\n");
        Buffer two = Buffer.buffer("data: 2\n\n");
        RelayedFrames frames = new RelayedFrames();
        SseParser parser = new SseParser(frames::relay);
        frames.read(one);
        parser.feed(one);
        frames.read(two);
        parser.feed(two);

        assertThat(frames.take().toString(StandardCharsets.UTF_8)).isEqualTo("data: 1\n\ndata: 2\n\n");
    }

    /** Every split of the stream into reads of 1 to n bytes: the relayed frames against CallerFrames.into's copy. */
    private static void assertSameAsCopied(String stream, Supplier<StreamTap> taps) {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        StreamTap copyingTap = taps.get();
        Buffer copied = Buffer.buffer();
        SseParser copying = new SseParser(e -> copyingTap.onEvent(e, CallerFrames.into(copied)));
        copying.feed(Buffer.buffer(bytes));
        copying.end();
        for (int piece = 1; piece <= bytes.length; piece++) {
            StreamTap tap = taps.get();
            RelayedFrames frames = new RelayedFrames();
            Buffer caller = Buffer.buffer();
            SseParser parser = new SseParser(e -> tap.onEvent(e, frames));
            for (int i = 0; i < bytes.length; i += piece) {
                Buffer read = Buffer.buffer(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + piece)));
                frames.read(read);
                parser.feed(read);
                Buffer taken = frames.take();
                if (taken != null) caller.appendBuffer(taken);
            }
            frames.noRead();
            parser.end();
            tap.onUpstreamEnd(frames.buffer());
            Buffer taken = frames.take();
            if (taken != null) caller.appendBuffer(taken);
            assertThat(caller.toString(StandardCharsets.UTF_8)).as("reads of %d bytes", piece)
                    .isEqualTo(copied.toString(StandardCharsets.UTF_8));
            assertThat(tap.usage()).isEqualTo(copyingTap.usage());
        }
    }
}
