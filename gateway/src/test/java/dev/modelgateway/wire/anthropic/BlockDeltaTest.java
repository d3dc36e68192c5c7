package dev.modelgateway.wire.anthropic;

import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Vendor A's deltas read with the streaming parser decode as the tree reader decodes them: every recorded
 * stream gives the same canonical events either way, and the deltas it does not know go to the tree reader.
 */
class BlockDeltaTest {
    @Test
    void everyRecordedStreamDecodesTheSameWithAndWithoutTheStreamingReader() throws IOException {
        int deltas = 0;
        for (String fixture : streams()) {
            List<SseEvent> events = Fixtures.sse(fixture);
            List<StreamEvent> streaming = decode(events);
            // without the event name the decoder cannot take the streaming path: the tree reads every event
            List<StreamEvent> tree = decode(events.stream().map(e -> new SseEvent(null, e.data())).toList());
            assertThat(streaming).as(fixture).isEqualTo(tree);
            for (SseEvent e : events) {
                if ("content_block_delta".equals(e.event())
                        && BlockDelta.read(e.dataArray(), e.dataOffset(), e.dataLength()) != null) deltas++;
            }
        }
        assertThat(deltas).as("deltas read by the streaming reader").isGreaterThan(300);
    }

    @Test
    void deltasItDoesNotKnowAreLeftToTheTreeReader() {
        for (String odd : List.of(
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"citations_delta\",\"citation\":{}}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"thinking\":\"x\"}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":5}}",
                "{\"type\":\"content_block_delta\",\"index\":\"0\",\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}",
                "{\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}}",
                "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"text\":\"x\"}}",
                "{\"type\":\"ping\"}", "{\"type\":\"content_block_delta\"")) {
            SseEvent e = new SseEvent("content_block_delta", odd);
            assertThat(BlockDelta.read(e.dataArray(), e.dataOffset(), e.dataLength())).as(odd).isNull();
        }
    }

    private static List<StreamEvent> decode(List<SseEvent> events) {
        AnthropicStreamDecoder decoder = new AnthropicStreamDecoder();
        List<StreamEvent> out = new ArrayList<>();
        try {
            for (SseEvent e : events) decoder.decode(e, out::add);
            decoder.end(out::add);
        } catch (RuntimeException error) {
            out.add(new StreamEvent.VendorDelta(-1, Fixtures.JSON.createObjectNode().put("error", error.getMessage())));
        }
        return out;
    }

    private static List<String> streams() throws IOException {
        try (Stream<Path> files = Files.list(Fixtures.dir().resolve("anthropic"))) {
            return files.filter(p -> p.toString().endsWith(".sse")).map(p -> Fixtures.dir().relativize(p).toString()).sorted().toList();
        }
    }
}
