package dev.modelgateway.wire.anthropic;

import com.anthropic.models.messages.Message;
import com.openai.models.chat.completions.ChatCompletion;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.Replay;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Concrete values from recorded Anthropic payloads survive translation to chat and back to messages. */
class AnthropicFixturesTest {
    private final AnthropicCodec codec = new AnthropicCodec();
    private static final CanonicalRequest USAGE = CanonicalRequest.builder(UnmappedFields.CHAT).includeUsage(true).build();

    @Test
    void cacheReadAndWriteBecomeOpenAiPromptTokensWithoutDoubleCounting() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.json("anthropic/message-cache-read-and-write.json"));
        assertThat(r.usage()).isEqualTo(new Usage(3, 1111, 418, 0, 33, 0));
        ChatCompletion cc = Replay.chatBody(new ChatInbound().encodeResponse(r, "m"));
        var u = cc.usage().orElseThrow();
        assertThat(u.promptTokens()).isEqualTo(3 + 1111 + 418);
        assertThat(u.promptTokensDetails().orElseThrow().cachedTokens()).contains(1111L);
        assertThat(u.completionTokens()).isEqualTo(33);
        assertThat(u.totalTokens()).isEqualTo(3 + 1111 + 418 + 33);
        Message m = Replay.messagesBody(new MessagesInbound().encodeResponse(r, "m"));
        assertThat(m.usage().inputTokens()).isEqualTo(3);
        assertThat(m.usage().cacheReadInputTokens()).contains(1111L);
        assertThat(m.usage().cacheCreationInputTokens()).contains(418L);
    }

    @Test
    void parallelToolUseKeepsTextOrderIdsAndArguments() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.json("anthropic/message-tool-use-parallel.json"));
        ChatCompletion cc = Replay.chatBody(new ChatInbound().encodeResponse(r, "m"));
        var msg = cc.choices().getFirst().message();
        assertThat(msg.content()).hasValueSatisfying(t -> assertThat(t).startsWith("I'll help you find out who is the youngest"));
        var calls = msg.toolCalls().orElseThrow();
        assertThat(calls).extracting(c -> c.asFunction().id()).containsExactly("toolu_0167cfEnoQaPviGdVXA95zcu",
                "toolu_01EEe2V5HD1Ac4rKiUR4HD2T", "toolu_01XFyAjstT3966qvRynZyVPo", "toolu_013mnQZbgtK2oe3Mo3XKJsx3");
        assertThat(calls.get(2).asFunction().function().arguments()).isEqualTo("{\"name\":\"Charlie\"}");
        assertThat(cc.choices().getFirst().finishReason().asString()).isEqualTo("tool_calls");
    }

    @Test
    void streamedParallelToolUseGetsPerMessageToolIndices() {
        Replay.Decoded d = Replay.decode(codec, "anthropic/stream-tool-use-parallel.sse");
        String sse = Replay.encode(new ChatInbound(), USAGE, d);
        // Anthropic block 1..4 (block 0 is text) must become tool_calls index 0..3.
        List<Integer> indices = Replay.frames(sse).stream().filter(f -> f.data().contains("\"id\":\"toolu_"))
                .map(f -> Fixtures.parse(f.data()).at("/choices/0/delta/tool_calls/0/index").asInt()).toList();
        assertThat(indices).containsExactly(0, 1, 2, 3);
        ChatCompletion cc = Replay.chat(sse);
        assertThat(cc.choices().getFirst().message().toolCalls().orElseThrow())
                .extracting(c -> c.asFunction().function().arguments())
                .containsExactly("{\"name\":\"Alice\"}", "{\"name\":\"Bob\"}", "{\"name\":\"Charlie\"}", "{\"name\":\"Daisy\"}");
    }

    @Test
    void thinkingSignatureSurvivesTheChatProtocolAndComesBackUnchanged() {
        Replay.Decoded d = Replay.decode(codec, "anthropic/stream-thinking-signature.sse");
        String sse = Replay.encode(new ChatInbound(), USAGE, d);
        List<SseEvent> frames = Replay.frames(sse);
        assertThat(frames.getFirst().data()).contains("\"role\":\"assistant\"");
        var blocks = frames.stream().map(f -> f.data()).filter(s -> s.contains("thinking_blocks")).toList();
        assertThat(blocks).hasSize(1);
        var tb = Fixtures.parse(blocks.getFirst()).at("/choices/0/delta/thinking_blocks/0");
        assertThat(tb.path("signature").asText()).startsWith("EvMCCkYICxgCKkCHP2cSuEdcJK/0rF");
        String reasoning = frames.stream().filter(f -> f.data().contains("reasoning_content"))
                .map(f -> Fixtures.parse(f.data()).at("/choices/0/delta/reasoning_content").asText()).reduce("", String::concat);
        assertThat(tb.path("thinking").asText()).isEqualTo(reasoning).isNotEmpty();
        // An OpenAI client that sends the assistant message back with thinking_blocks…
        var request = Fixtures.parse("""
                {"model":"m","messages":[{"role":"user","content":"hi"},
                 {"role":"assistant","content":"ok","thinking_blocks":[%s]},{"role":"user","content":"more"}]}"""
                .formatted(tb.toString()));
        var body = codec.encodeRequest(new ChatInbound().decodeRequest(request), "claude", false).body();
        // …gets the exact block replayed to Anthropic.
        assertThat(body.at("/messages/1/content/0")).isEqualTo(Fixtures.parse(
                "{\"type\":\"thinking\",\"thinking\":" + Fixtures.JSON.valueToTree(reasoning) + ",\"signature\":"
                        + Fixtures.JSON.valueToTree(tb.path("signature").asText()) + "}"));
    }

    @Test
    void redactedThinkingArrivesWholeAndIsReplayable() {
        Replay.Decoded d = Replay.decode(codec, "anthropic/stream-redacted-thinking.sse");
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), USAGE, d));
        assertThat(m.content()).filteredOn(b -> b.isRedactedThinking()).isNotEmpty()
                .allSatisfy(b -> assertThat(b.asRedactedThinking().data()).startsWith("E"));
        String chat = Replay.encode(new ChatInbound(), USAGE, d);
        assertThat(chat).contains("\"type\":\"redacted_thinking\",\"data\":\"EqkECkYIBxgCKkA8AZ4n");
    }

    @Test
    void refusalAndPauseTurnMapToTheirOwnOutcomes() {
        var refusal = Replay.decode(codec, "anthropic/stream-refusal-after-thinking.sse");
        assertThat(Replay.chat(Replay.encode(new ChatInbound(), USAGE, refusal)).choices().getFirst().finishReason().asString())
                .isEqualTo("content_filter");
        assertThat(refusal.events()).anySatisfy(e -> assertThat(e).isEqualTo(
                new StreamEvent.MessageDelta(StopReason.REFUSAL, null,
                        ((StreamEvent.MessageDelta) refusal.events().stream()
                                .filter(x -> x instanceof StreamEvent.MessageDelta).findFirst().get()).usage())));
        var pause = Replay.decode(codec, "anthropic/stream-pause-turn-web-search.sse");
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), USAGE, pause));
        assertThat(m.stopReason().orElseThrow().asString()).isEqualTo("pause_turn");
    }

    @Test
    void maxTokensMidToolInputMapsToLength() {
        var d = Replay.decode(codec, "anthropic/stream-max-tokens-mid-tool-input.sse");
        String sse = Replay.encode(new ChatInbound(), USAGE, d);
        assertThat(Replay.chat(sse).choices().getFirst().finishReason().asString()).isEqualTo("length");
    }

    @Test
    void midStreamErrorBecomesInBandErrorOfEachProtocol() {
        var d = Replay.decode(codec, "anthropic/stream-error-overloaded-midstream.sse");
        assertThat(d.error()).isNotNull();
        assertThat(d.error().kind()).isEqualTo(ErrorKind.OVERLOADED);
        assertThat(d.error().getMessage()).isEqualTo("Overloaded");
        String chat = Replay.encode(new ChatInbound(), USAGE, d);
        assertThat(chat).endsWith("data: {\"error\":{\"message\":\"Overloaded\",\"type\":\"server_error\",\"param\":null,\"code\":\"overloaded_error\"}}\n\n");
        String messages = Replay.encode(new MessagesInbound(), USAGE, d);
        assertThat(messages).endsWith("event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n");
    }

    @Test
    void streamUsageCombinesMessageStartAndMessageDelta() {
        var d = Replay.decode(codec, "anthropic/stream-text-plain.sse");
        var cc = Replay.chat(Replay.encode(new ChatInbound(), USAGE, d));
        var start = Fixtures.sse("anthropic/stream-text-plain.sse").stream().filter(e -> "message_start".equals(e.event()))
                .map(e -> Fixtures.parse(e.data()).at("/message/usage/input_tokens").asLong()).findFirst().orElseThrow();
        assertThat(cc.usage().orElseThrow().promptTokens()).isEqualTo(start);
        // Exactly one usage report, in a trailing chunk without choices.
        assertThat(Replay.frames(Replay.encode(new ChatInbound(), USAGE, d))).filteredOn(f -> f.data().contains("\"usage\""))
                .hasSize(1).allSatisfy(f -> assertThat(f.data()).contains("\"choices\":[]"));
        // No usage chunk when the client did not ask for it.
        var noUsage = CanonicalRequest.builder(UnmappedFields.CHAT).build();
        assertThat(Replay.encode(new ChatInbound(), noUsage, d)).doesNotContain("\"usage\"");
    }

    @Test
    void emptyTextBlockBeforeToolUseIsNotReplayedAndEmptyInputBecomesObject() {
        CanonicalResponse r = codec.decodeResponse(Fixtures.parse("""
                {"id":"msg_1","model":"c","role":"assistant","type":"message","stop_reason":"tool_use",
                 "content":[{"type":"text","text":""},{"type":"tool_use","id":"toolu_1","name":"ping","input":{}}],
                 "usage":{"input_tokens":1,"output_tokens":1}}"""));
        Message m = Replay.messagesBody(new MessagesInbound().encodeResponse(r, "m"));
        assertThat(m.content()).hasSize(1);
        var cc = Replay.chatBody(new ChatInbound().encodeResponse(r, "m"));
        assertThat(cc.choices().getFirst().message().content()).isEmpty();
        assertThat(cc.choices().getFirst().message().toolCalls().orElseThrow().getFirst().asFunction().function().arguments()).isEqualTo("{}");
        assertThat(r.content()).first().isInstanceOf(ContentBlock.Text.class);
    }
}
