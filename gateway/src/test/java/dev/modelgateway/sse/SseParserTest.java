package dev.modelgateway.sse;

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
    void aFinalEventWithoutTheBlankLineIsFlushedAtEnd() {
        assertThat(parse("data: {\"a\":1}".getBytes(StandardCharsets.UTF_8), 4))
                .containsExactly(new SseEvent(null, "{\"a\":1}"));
    }
}
