package dev.modelgateway.wire;

import dev.modelgateway.canonical.LocalTokenizer;
import dev.modelgateway.sse.SseEvent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The text of relayed deltas, found without parsing them, is exactly the text fields' values, unescaped. */
class RelayedTextTest {
    private static final RelayedText.Fields CHAT = new RelayedText.Fields("content", "reasoning_content", "arguments");

    private static RelayedText kept(String... deltas) {
        RelayedText text = new RelayedText(CHAT);
        for (String d : deltas) text.add(new SseEvent(null, d));
        return text;
    }

    @Test
    void theTextFieldsAreKeptWhereverTheyStandAndUnescaped() {
        RelayedText text = kept(
                "{\"id\":\"c\",\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
                "{\"id\":\"c\",\"choices\":[{\"delta\":{\"content\":\"He said \\\"content\\\": \\u00e9t\\u00e9\"}}]}",
                "{\"choices\":[{\"finish_reason\":null,\"delta\":{\"content\":null,\"reasoning_content\": \" and\\nthen\"}}]}",
                "{\"id\":\"c\",\"choices\":[{\"delta\":{\"content\":\" \\ud83c\\udf0d\"}}]}",
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":1}\"}}]}}]}",
                "{\"id\":\"c\",\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}");
        String expected = "He said \"content\": été and\nthen 🌍{\"a\":1}";
        assertThat(text.tokens()).isEqualTo(LocalTokenizer.count(expected));
    }

    @Test
    void beyondTheKeptBytesEveryFourBytesCountOneToken() {
        String word = "x".repeat(1000);
        RelayedText text = new RelayedText(CHAT);
        int deltas = RelayedText.KEPT_BYTES / 1000 + 100;
        for (int i = 0; i < deltas; i++) text.add(new SseEvent(null, "{\"delta\":{\"content\":\"" + word + "\"}}"));
        assertThat(text.bytes()).isEqualTo(deltas * 1000L);
        long beyond = deltas * 1000L - RelayedText.KEPT_BYTES;
        assertThat(text.tokens()).isEqualTo(LocalTokenizer.count("x".repeat(RelayedText.KEPT_BYTES)) + beyond / 4);
    }
}
