package dev.modelgateway.wire;

import dev.modelgateway.canonical.Usage;
import dev.modelgateway.sse.SseParser;
import dev.modelgateway.wire.anthropic.AnthropicNativeTap;
import dev.modelgateway.wire.openai.chat.ChatNativeTap;
import dev.modelgateway.wire.openai.responses.ResponsesNativeTap;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native taps relay each upstream frame byte for byte, however the network splits it (inside multi-byte
 * characters too), read the usage the ledger needs, and drop only the usage chunk the caller did not ask for.
 */
class NativeTapRelayTest {
    private static final String CHAT_DELTAS = """
            data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}

            data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"héllo 🌍 \\"usage\\":{ 日本"}}]}

            data: {"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":null}

            """;
    private static final String CHAT_USAGE = """
            data: {"id":"c1","object":"chat.completion.chunk","choices":[],"usage":{"prompt_tokens":11,"completion_tokens":3,"total_tokens":14,"prompt_tokens_details":{"cached_tokens":4}}}

            """;
    private static final String CHAT_DONE = "data: [DONE]\n\n";

    private static final String MESSAGES = """
            event: message_start
            data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"m","usage":{"input_tokens":12,"cache_read_input_tokens":5,"output_tokens":1}}}

            event: content_block_start
            data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

            event: ping
            data: {"type": "ping"}

            event: content_block_delta
            data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"héllo 🌍 日本"}}

            event: content_block_stop
            data: {"type":"content_block_stop","index":0}

            event: message_delta
            data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}

            event: message_stop
            data: {"type":"message_stop"}

            """;

    @Test
    void chatFramesAreRelayedByteForByteAndTheUsageChunkOnlyToWhoAskedForIt() {
        String stream = CHAT_DELTAS + CHAT_USAGE + CHAT_DONE;
        Usage usage = new Usage(7, 4, 0, 0, 3, 0);
        assertRelayed(stream, stream, () -> new ChatNativeTap(true), usage);
        assertRelayed(stream, CHAT_DELTAS + CHAT_DONE, () -> new ChatNativeTap(false), usage);
    }

    @Test
    void messagesEventsAreRelayedByteForByteWithTheirUsageRead() {
        assertRelayed(MESSAGES, MESSAGES, () -> new AnthropicNativeTap("trace", id -> { }), new Usage(12, 5, 0, 0, 9, 0));
    }

    @Test
    void aResponsesStreamsWebSearchesAreCountedForTheirPerCallPrice() {
        String stream = Fixtures.text("openai-responses/stream-web-search.sse");
        StreamTap tap = new ResponsesNativeTap("trace", id -> { });
        Buffer out = Buffer.buffer();
        SseParser parser = new SseParser(e -> tap.onEvent(e, CallerFrames.into(out)));
        parser.feed(Buffer.buffer(stream));
        parser.end();
        // one web_search_call among the completed response's output items; 9463 input of which 8320 cached
        assertThat(tap.usage()).isEqualTo(new Usage(1143, 8320, 0, 0, 582, 512, 1));
    }

    /**
     * Recorded vendor streams: the text the tap kept before the vendor's usage, counted, is what a stream cut just
     * before that report is billed; never more than the vendor reported, and most of it where the answer is text
     * (a tool call's structure and a short answer's framing tokens are not in the deltas' text).
     */
    @ParameterizedTest
    @CsvSource({
            "openai-chat/stream-json-object-long.sse, chat, 95",
            "openai-chat/stream-tool-call-single-fragmented.sse, chat, 50",
            "openai-chat/stream-refusal.sse, chat, 80",
            "qwen/stream-text.sse, chat, 95",
            "qwen/stream-reasoning-content.sse, chat, 95",
            "qwen/stream-tool-call.sse, chat, 25",
            "anthropic/stream-text-plain.sse, messages, 20",
            "anthropic/stream-thinking-signature.sse, messages, 85",
            "anthropic/stream-tool-use-single-fragmented.sse, messages, 20",
            "openai-responses/stream-text-plain.sse, responses, 50",
            "openai-responses/stream-function-call.sse, responses, 30",
    })
    void theTextRelayedBeforeTheUsageCountsAboutWhatTheVendorReported(String fixture, String format, int leastPercent) {
        StreamTap tap = switch (format) {
            case "chat" -> new ChatNativeTap(true);
            case "messages" -> new AnthropicNativeTap("trace", id -> { });
            default -> new ResponsesNativeTap("trace", id -> { });
        };
        RelayedText[] kept = new RelayedText[1];
        SseParser parser = new SseParser(e -> {
            if (tap.unbilled() != null) kept[0] = tap.unbilled();
            tap.onEvent(e, CallerFrames.into(Buffer.buffer()));
        });
        parser.feed(Buffer.buffer(Fixtures.text(fixture)));
        parser.end();
        assertThat(tap.unbilled()).as("the vendor's own figure, once reported").isNull();
        long reported = tap.usage().outputTokens();
        assertThat(kept[0].tokens()).isBetween(reported * leastPercent / 100, reported);
    }

    private static void assertRelayed(String upstream, String expected, Supplier<StreamTap> taps, Usage usage) {
        byte[] bytes = upstream.getBytes(StandardCharsets.UTF_8);
        for (int piece = 1; piece <= bytes.length; piece++) {
            StreamTap tap = taps.get();
            Buffer out = Buffer.buffer();
            SseParser parser = new SseParser(e -> tap.onEvent(e, CallerFrames.into(out)));
            for (int i = 0; i < bytes.length; i += piece) {
                parser.feed(Buffer.buffer(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + piece))));
            }
            parser.end();
            assertThat(out.toString(StandardCharsets.UTF_8)).as("pieces of %d bytes", piece).isEqualTo(expected);
            assertThat(tap.usage()).isEqualTo(usage);
            assertThat(tap.complete()).isTrue();
            assertThat(tap.failed()).isFalse();
        }
    }
}
