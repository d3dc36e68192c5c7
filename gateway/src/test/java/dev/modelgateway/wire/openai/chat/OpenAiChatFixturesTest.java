package dev.modelgateway.wire.openai.chat;

import com.anthropic.models.messages.ContentBlock;
import com.anthropic.models.messages.Message;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.Replay;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Recorded OpenAI chat payloads → Anthropic messages clients. */
class OpenAiChatFixturesTest {
    private final OpenAiChatCodec codec = new OpenAiChatCodec();
    private static final CanonicalRequest REQ = CanonicalRequest.builder(UnmappedFields.MESSAGES).includeUsage(true).build();

    @Test
    void cachedTokensAreSubtractedFromInput() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.json("openai-chat/response-cached-tokens.json"));
        assertThat(r.usage()).isEqualTo(new Usage(8, 4012, 0, 0, 4, 0));
        Message m = Replay.messagesBody(new MessagesInbound().encodeResponse(r, "m"));
        assertThat(m.usage().inputTokens()).isEqualTo(8);
        assertThat(m.usage().cacheReadInputTokens()).contains(4012L);
    }

    @Test
    void parallelStreamedCallsBecomeSeparateSequentialToolUseBlocks() {
        var d = Replay.decode(codec, "openai-chat/stream-tool-calls-parallel.sse");
        String sse = Replay.encode(new MessagesInbound(), REQ, d);
        Message m = Replay.messages(sse);
        List<ContentBlock> tools = m.content().stream().filter(ContentBlock::isToolUse).toList();
        assertThat(tools).extracting(b -> b.asToolUse().id())
                .containsExactly("call_JMW1whyEaYG438VE1OIflxA2", "call_DNYTawLBoN8fj3KN6qU9N1Ou");
        assertThat(tools).extracting(b -> b.asToolUse().name()).containsExactly("GetWeatherArgs", "get_stock_price");
        assertThat(Replay.anthropicJson(tools.get(0).asToolUse()._input()))
                .isEqualTo("{\"city\":\"Edinburgh\",\"country\":\"GB\",\"units\":\"c\"}");
        assertThat(Replay.anthropicJson(tools.get(1).asToolUse()._input()))
                .isEqualTo("{\"ticker\":\"AAPL\",\"exchange\":\"NASDAQ\"}");
        assertThat(m.stopReason().orElseThrow().asString()).isEqualTo("tool_use");
        // Tool-first stream: the first content block is the tool_use at index 0, no empty text block.
        List<SseEvent> frames = Replay.frames(sse);
        SseEvent firstStart = frames.stream().filter(f -> "content_block_start".equals(f.event())).findFirst().orElseThrow();
        assertThat(Fixtures.parse(firstStart.data()).path("index").asInt()).isZero();
        assertThat(Fixtures.parse(firstStart.data()).at("/content_block/type").asText()).isEqualTo("tool_use");
        assertThat(frames).noneMatch(f -> f.data().contains("\"partial_json\":\"\""));
        // Usage arrives after finish_reason in OpenAI; it must reach message_delta.
        assertThat(m.usage().inputTokens()).isEqualTo(149);
        assertThat(m.usage().outputTokens()).isEqualTo(60);
    }

    @Test
    void lengthAndRefusalMapToAnthropicStopReasons() {
        var length = Replay.messages(Replay.encode(new MessagesInbound(), REQ, Replay.decode(codec, "openai-chat/stream-length-stop.sse")));
        assertThat(length.stopReason().orElseThrow().asString()).isEqualTo("max_tokens");
        var refusal = Replay.messages(Replay.encode(new MessagesInbound(), REQ, Replay.decode(codec, "openai-chat/stream-refusal.sse")));
        assertThat(refusal.stopReason().orElseThrow().asString()).isEqualTo("refusal");
        assertThat(refusal.content()).anySatisfy(b -> assertThat(b.asText().text()).isNotBlank());
    }

    @Test
    void reasoningOnlyLengthResponseHasNoEmptyTextBlock() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.json("openai-chat/response-length-empty-content.json"));
        assertThat(r.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
        Message m = Replay.messagesBody(new MessagesInbound().encodeResponse(r, "m"));
        assertThat(m.content()).isEmpty();
        assertThat(m.usage().outputTokens()).isEqualTo(r.usage().outputTokens());
        var d = Replay.decode(codec, "openai-chat/stream-length-reasoning-no-content.sse");
        String sse = Replay.encode(new MessagesInbound(), REQ, d);
        assertThat(sse).doesNotContain("content_block_start");
        assertThat(Replay.messages(sse).stopReason().orElseThrow().asString()).isEqualTo("max_tokens");
    }

    @Test
    void reasoningTokensAreReported() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.json("openai-chat/response-reasoning-tokens.json"));
        long reasoning = Fixtures.json("openai-chat/response-reasoning-tokens.json").at("/usage/completion_tokens_details/reasoning_tokens").asLong();
        assertThat(r.usage().reasoningTokens()).isEqualTo(reasoning).isPositive();
    }

    @Test
    void midStreamErrorObjectIsRaised() {
        var d = Replay.decode(codec, "openai-chat/stream-error-midstream.sse");
        assertThat(d.error().kind()).isEqualTo(ErrorKind.UPSTREAM);
        assertThat(d.error().getMessage()).isEqualTo("The server had an error while processing your request.");
        assertThat(Replay.encode(new MessagesInbound(), REQ, d)).contains("event: error\n").contains("\"type\":\"api_error\"");
    }

    @Test
    void errorBodyKeepsCodeAndParam() {
        var e = codec.decodeError(400, Fixtures.text("openai-chat/error-400-unsupported-parameter.json"));
        assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        assertThat(e.param()).isEqualTo("max_tokens");
        assertThat(new MessagesInbound().encodeError(e).at("/error/type").asText()).isEqualTo("invalid_request_error");
    }
}
