package dev.modelgateway.wire;

import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.StreamAccumulator;
import dev.modelgateway.canonical.ToolArguments;
import dev.modelgateway.wire.anthropic.AnthropicCodec;
import dev.modelgateway.wire.qwen.QwenCodec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StreamAccumulatorTest {
    @Test
    void streamedParallelToolUseEqualsTheWholeResponse() {
        var acc = new StreamAccumulator();
        Replay.decode(new AnthropicCodec(), "anthropic/stream-tool-use-parallel.sse").events().forEach(acc::accept);
        var streamed = acc.response();
        var whole = new AnthropicCodec().decodeResponse(Fixtures.json("anthropic/message-tool-use-parallel.json"));
        assertThat(streamed.stopReason()).isEqualTo(StopReason.TOOL_USE).isEqualTo(whole.stopReason());
        assertThat(streamed.content()).hasSameSizeAs(whole.content());
        for (int i = 0; i < whole.content().size(); i++) {
            if (whole.content().get(i) instanceof ContentBlock.ToolUse w) {
                var s = (ContentBlock.ToolUse) streamed.content().get(i);
                assertThat(s.id()).isEqualTo(w.id());
                assertThat(ToolArguments.toObject(s.arguments())).isEqualTo(ToolArguments.toObject(w.arguments()));
            } else {
                assertThat(streamed.content().get(i)).isEqualTo(whole.content().get(i));
            }
        }
    }

    @Test
    void qwenStreamAggregatesForNonStreamingClients() {
        var acc = new StreamAccumulator();
        Replay.decode(new QwenCodec(), "qwen/stream-reasoning-content.sse").events().forEach(acc::accept);
        var r = acc.response();
        assertThat(r.content()).hasSize(2);
        assertThat(r.content().getFirst()).isInstanceOf(ContentBlock.Thinking.class);
        assertThat(r.usage().outputTokens()).isEqualTo(1355);
    }
}
