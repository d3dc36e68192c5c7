package dev.modelgateway.sse;

import io.netty.buffer.Unpooled;
import io.vertx.core.internal.buffer.BufferInternal;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SseParserTest {
    static final String STREAM = """
            : keep-alive comment
            event: message_start
            data: {"type":"message_start","text":"héllo 🌍"}

            data: first line
            data: second line

            event:ping
            data:{"type":"ping"}

            id: 7
            retry: 100
            data: [DONE]

            """;

    static List<SseEvent> parse(byte[] bytes, int pieceSize) {
        List<SseEvent> events = new ArrayList<>();
        SseParser parser = new SseParser(events::add);
        for (int i = 0; i < bytes.length; i += pieceSize) {
            parser.feed(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + pieceSize)));
        }
        parser.end();
        return events;
    }

    static final List<SseEvent> EXPECTED = List.of(
            new SseEvent("message_start", "{\"type\":\"message_start\",\"text\":\"héllo 🌍\"}"),
            new SseEvent(null, "first line\nsecond line"),
            new SseEvent("ping", "{\"type\":\"ping\"}"),
            new SseEvent(null, "[DONE]"));

    @Test
    void sameEventsWhateverTheNetworkSplitIncludingInsideMultiByteCharacters() {
        byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
        for (int size = 1; size <= bytes.length; size++) {
            assertThat(parse(bytes, size)).as("pieces of %d bytes", size).isEqualTo(EXPECTED);
        }
    }

    @Test
    void crlfAndBareCrLineEndings() {
        for (String eol : new String[]{"\r\n", "\r"}) {
            byte[] bytes = STREAM.replace("\n", eol).getBytes(StandardCharsets.UTF_8);
            for (int size : new int[]{1, 2, 3, 7, bytes.length}) {
                assertThat(parse(bytes, size)).as("eol %s, pieces of %d", eol.replace("\r", "CR").replace("\n", "LF"), size)
                        .isEqualTo(EXPECTED);
            }
        }
    }

    @Test
    void networkBuffersAreReadInPlaceWhereverTheirBytesStartInTheirArray() {
        byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
        int half = bytes.length / 2;
        byte[] padded = new byte[bytes.length + 20];
        Arrays.fill(padded, (byte) '\n');
        System.arraycopy(bytes, 0, padded, 10, bytes.length);
        List<SseEvent> events = new ArrayList<>();
        SseParser parser = new SseParser(events::add);
        parser.feed(BufferInternal.buffer(Unpooled.wrappedBuffer(padded).setIndex(10, 10 + half)));
        parser.feed(BufferInternal.buffer(Unpooled.wrappedBuffer(padded).slice(10 + half, bytes.length - half)));
        parser.end();
        assertThat(events).isEqualTo(EXPECTED);
    }

    @Test
    void lineEndsAreFoundWhereverTheyFallInTheEightByteWords() {
        java.util.Random random = new java.util.Random(13);
        byte[] alphabet = {'\n', '\r', 0, 1, (byte) 0x80, (byte) 0xFF, (byte) 0x0B, (byte) 0x8A, (byte) 0x8D, 'a'};
        for (int round = 0; round < 2_000; round++) {
            byte[] bytes = new byte[random.nextInt(40)];
            int sparse = 1 + random.nextInt(30);
            for (int i = 0; i < bytes.length; i++) bytes[i] = random.nextInt(sparse) == 0 ? alphabet[random.nextInt(2)] : alphabet[2 + random.nextInt(8)];
            for (int from = 0; from <= bytes.length; from++) {
                int expected = from;
                while (expected < bytes.length && bytes[expected] != '\n' && bytes[expected] != '\r') expected++;
                assertThat(SseParser.lineEnd(bytes, from, bytes.length)).as("%s from %d", Arrays.toString(bytes), from).isEqualTo(expected);
            }
        }
    }

    @Test
    void aFinalEventWithoutTheBlankLineIsFlushedAtEnd() {
        assertThat(parse("data: {\"a\":1}".getBytes(StandardCharsets.UTF_8), 4))
                .containsExactly(new SseEvent(null, "{\"a\":1}"));
    }
}
