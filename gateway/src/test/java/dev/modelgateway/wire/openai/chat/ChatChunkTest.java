package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The streaming chunk reader reads every recorded chat-completions chunk (vendor B and D) as the tree reader
 * does, and hands the ones it does not know (errors, odd field types) to it.
 */
class ChatChunkTest {
    @Test
    void everyRecordedChunkReadsTheSameStreamingAsFromTheTree() throws IOException {
        int read = 0;
        for (String fixture : streams()) {
            for (SseEvent e : Fixtures.sse(fixture)) {
                if (e.data().trim().equals("[DONE]")) continue;
                JsonNode tree = Fixtures.parse(e.data());
                ChatChunk streaming = new ChatChunk();
                boolean usual = streaming.read(e.dataArray(), e.dataOffset(), e.dataLength(), true);
                assertThat(usual).as("%s: %s", fixture, e.data()).isEqualTo(!tree.path("error").isObject());
                if (!usual) continue;
                ChatChunk fromTree = new ChatChunk();
                fromTree.read(tree);
                assertThat(streaming.id).isEqualTo(fromTree.id);
                assertThat(streaming.model).isEqualTo(fromTree.model);
                assertThat(streaming.usage).isEqualTo(fromTree.usage);
                assertThat(normalised(streaming.choices)).as("%s: %s", fixture, e.data()).isEqualTo(normalised(fromTree.choices));
                read++;
            }
        }
        assertThat(read).isGreaterThan(500);
    }

    @Test
    void oddShapesAreLeftToTheTreeReader() {
        for (String odd : List.of("{\"error\":{\"message\":\"x\"}}", "[1]", "{\"choices\":null}", "{\"id\":null}",
                "{\"choices\":[{\"index\":\"0\",\"delta\":{}}]}", "{\"choices\":[{\"delta\":{\"content\":5}}]}",
                "{\"choices\":[{\"finish_reason\":{}}]}", "{\"choices\":[{\"delta\":{\"tool_calls\":{}}}]}", "{\"id\":\"x\"", "")) {
            SseEvent e = new SseEvent(null, odd);
            assertThat(new ChatChunk().read(e.dataArray(), e.dataOffset(), e.dataLength(), true)).as(odd).isFalse();
        }
    }

    private static List<ChatChunk.Choice> normalised(List<ChatChunk.Choice> choices) {
        return choices.stream().map(c -> new ChatChunk.Choice(orEmpty(c.reasoning()), orEmpty(c.content()),
                orEmpty(c.refusal()), c.toolCalls(), c.finishReason())).toList();
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private static List<String> streams() throws IOException {
        try (Stream<Path> files = Stream.concat(Files.list(Fixtures.dir().resolve("openai-chat")), Files.list(Fixtures.dir().resolve("qwen")))) {
            return files.filter(p -> p.toString().endsWith(".sse")).map(p -> Fixtures.dir().relativize(p).toString()).sorted().toList();
        }
    }
}
