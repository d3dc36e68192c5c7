package dev.modelgateway.wire;

import com.anthropic.models.messages.Message;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.openai.core.ObjectMappers;
import com.openai.models.chat.completions.ChatCompletion;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.StreamEvent;
import dev.modelgateway.canonical.ToolCallIds;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.wire.anthropic.AnthropicCodec;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import dev.modelgateway.wire.openai.chat.OpenAiChatCodec;
import dev.modelgateway.wire.qwen.QwenCodec;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * translation-notes.md §13, item by item. Items covered by recorded fixtures elsewhere are named in the
 * comments: 6, 7 ChatCompletionsRequestEncoderTest; 10 AnthropicRequestEncoderTest and the fixture tests;
 * 12 *FixturesTest mid-stream errors and FixtureReplayTest error bodies; 13, 14 Gemini*Test.
 */
class TranslationChecklistTest {
    static final CanonicalRequest USAGE = CanonicalRequest.builder(UnmappedFields.CHAT).includeUsage(true).build();

    /** Feeds chat-completions chunk JSON lines (as an OpenAI-shaped upstream would send) through a decoder. */
    static Replay.Decoded chatUpstream(VendorCodec codec, String... chunks) {
        StreamDecoder d = codec.newStreamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        for (String c : chunks) d.decode(new SseEvent(null, c), events::add);
        d.decode(new SseEvent(null, "[DONE]"), events::add);
        d.end(events::add);
        return new Replay.Decoded(events, null);
    }

    static String chunk(String delta) {
        return "{\"id\":\"c1\",\"model\":\"x\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":null}]}";
    }

    static String finish(String reason) {
        return "{\"id\":\"c1\",\"model\":\"x\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"" + reason + "\"}]}";
    }

    static final String USAGE_CHUNK = "{\"id\":\"c1\",\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15}}";

    @Test
    void item1_interleavedParallelToolFragmentsBecomeSequentialAnthropicBlocks() {
        var d = chatUpstream(new OpenAiChatCodec(),
                chunk("{\"role\":\"assistant\",\"content\":null}"),
                chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}"),
                chunk("{\"tool_calls\":[{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":\"g\",\"arguments\":\"{\\\"y\\\"\"}}]}"),
                chunk("{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"x\\\":1}\"}}]}"),
                chunk("{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\":2}\"}}]}"),
                finish("tool_calls"), USAGE_CHUNK);
        String sse = Replay.encode(new MessagesInbound(), USAGE, d);
        Message m = Replay.messages(sse);
        assertThat(m.content()).extracting(b -> b.asToolUse().id()).containsExactly("call_a", "call_b");
        assertThat(m.content()).extracting(b -> Replay.anthropicJson(b.asToolUse()._input()))
                .containsExactly("{\"x\":1}", "{\"y\":2}");
        // Blocks never interleave on the Anthropic side: start0, deltas0, stop0, start1, ...
        List<String> order = Replay.frames(sse).stream().filter(f -> f.event().startsWith("content_block"))
                .map(f -> f.event() + Fixtures.parse(f.data()).path("index").asInt()).toList();
        assertThat(order).containsExactly("content_block_start0", "content_block_delta0", "content_block_stop0",
                "content_block_start1", "content_block_delta1", "content_block_delta1", "content_block_stop1");
    }

    @Test
    void item1_textAfterToolCallsWaitsForTheToolBlocksAndKeepsItsContent() {
        var d = chatUpstream(new OpenAiChatCodec(),
                chunk("{\"role\":\"assistant\",\"content\":\"Let me look.\"}"),
                chunk("{\"tool_calls\":[{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}"),
                chunk("{\"content\":\" Done.\"}"),
                finish("tool_calls"), USAGE_CHUNK);
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), USAGE, d));
        assertThat(m.content()).hasSize(3);
        assertThat(m.content().get(0).asText().text()).isEqualTo("Let me look.");
        assertThat(m.content().get(1).asToolUse().id()).isEqualTo("call_a");
        assertThat(m.content().get(2).asText().text()).isEqualTo(" Done.");
    }

    @Test
    void item2_nameAndArgumentsInOneChunkWithoutIndexAndStopInsteadOfToolCalls() {
        var d = chatUpstream(new OpenAiChatCodec(),
                chunk("{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c9\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"q\\\":\\\"z\\\"}\"}}]}"),
                finish("stop"), USAGE_CHUNK);
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), USAGE, d));
        assertThat(Replay.anthropicJson(m.content().getFirst().asToolUse()._input())).isEqualTo("{\"q\":\"z\"}");
        assertThat(m.stopReason().orElseThrow().asString()).isEqualTo("tool_use");
        ChatCompletion cc = Replay.chat(Replay.encode(new ChatInbound(), USAGE, d));
        assertThat(cc.choices().getFirst().finishReason().asString()).isEqualTo("tool_calls");
    }

    @Test
    void item3_reasoningFirstAndReasoningWithContentInOneChunk() {
        var d = chatUpstream(new QwenCodec(),
                chunk("{\"role\":\"assistant\",\"reasoning_content\":\"think\"}"),
                chunk("{\"reasoning_content\":\" more\",\"content\":\"Answer\"}"),
                finish("stop"), USAGE_CHUNK);
        String sse = Replay.encode(new MessagesInbound(), USAGE, d);
        Message m = Replay.messages(sse);
        assertThat(m.content().getFirst().asThinking().thinking()).isEqualTo("think more");
        assertThat(m.content().get(1).asText().text()).isEqualTo("Answer");
        assertThat(m.content()).hasSize(2);
        SseEvent first = Replay.frames(sse).stream().filter(f -> "content_block_start".equals(f.event())).findFirst().orElseThrow();
        assertThat(first.data()).contains("\"index\":0").contains("\"type\":\"thinking\"");
    }

    @Test
    void item3_signatureOnlyThinkingBlockIsKeptAndReplayed() {
        String upstream = """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"c","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"ONLYSIG"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: content_block_start
                data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":1}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":9}}

                event: message_stop
                data: {"type":"message_stop"}

                """;
        var decoder = new AnthropicCodec().newStreamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        for (SseEvent e : Replay.frames(upstream)) decoder.decode(e, events::add);
        String chat = Replay.encode(new ChatInbound(), USAGE, new Replay.Decoded(events, null));
        assertThat(chat).contains("\"thinking_blocks\":[{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"ONLYSIG\"}]");
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), USAGE, new Replay.Decoded(events, null)));
        assertThat(m.content().getFirst().asThinking().signature()).isEqualTo("ONLYSIG");
    }

    @Test
    void item4_thinkingToolUseSecondTurnSurvivesTheOpenAiClientRoundTrip() {
        var anthropic = new AnthropicCodec();
        var response = anthropic.decodeResponse(Fixtures.parse("""
                {"id":"msg_1","type":"message","role":"assistant","model":"c","stop_reason":"tool_use",
                 "content":[{"type":"thinking","thinking":"Need weather","signature":"SIG1"},
                            {"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Paris"}}],
                 "usage":{"input_tokens":10,"output_tokens":20}}"""));
        ChatCompletion cc = Replay.chatBody(new ChatInbound().encodeResponse(response, "m"));
        // The client echoes the assistant message it got (SDK-level JSON, extension fields included).
        var echoed = (ObjectNode) Fixtures.parse(
                ObjectMappers.jsonMapper().valueToTree(cc.choices().getFirst().message()).toString());
        var next = Fixtures.parse("""
                {"model":"m","reasoning_effort":"low","max_tokens":4000,"messages":[{"role":"user","content":"Weather?"},%s,
                 {"role":"tool","tool_call_id":"toolu_1","content":"18C"}],
                 "tools":[{"type":"function","function":{"name":"weather","parameters":{"type":"object"}}}]}""".formatted(echoed));
        var body = anthropic.encodeRequest(new ChatInbound().decodeRequest(next), "claude", false).body();
        assertThat(body.at("/messages/1/content")).isEqualTo(Fixtures.parse("""
                [{"type":"thinking","thinking":"Need weather","signature":"SIG1"},
                 {"type":"tool_use","id":"toolu_1","name":"weather","input":{"city":"Paris"}}]"""));
        assertThat(body.at("/messages/2/content/0/type").asText()).isEqualTo("tool_result");
    }

    @Test
    void item5_emptyAssistantContentWithToolCallsAndWhitespaceText() {
        for (String content : List.of("\"\"", "null")) {
            var body = new AnthropicCodec().encodeRequest(new ChatInbound().decodeRequest(Fixtures.parse("""
                    {"model":"m","messages":[{"role":"user","content":"hi"},
                     {"role":"assistant","content":%s,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":""}}]},
                     {"role":"tool","tool_call_id":"c","content":""}]}""".formatted(content))), "claude", false).body();
            assertThat(body.at("/messages/1/content")).hasSize(1);
            assertThat(body.at("/messages/1/content/0/type").asText()).isEqualTo("tool_use");
            assertThat(body.at("/messages/2/content/0")).isEqualTo(Fixtures.parse("{\"type\":\"tool_result\",\"tool_use_id\":\"c\"}"));
        }
        var blank = new AnthropicCodec().encodeRequest(new ChatInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":""},{"role":"user","content":"  "}]}""")),
                "claude", false).body();
        assertThat(blank.at("/messages/1/content")).isEqualTo(Fixtures.parse("[{\"type\":\"text\",\"text\":\"...\"}]"));
        assertThat(blank.at("/messages/2/content/0/text").asText()).isEqualTo("  ");
    }

    @Test
    void item8_crossProviderToolIdsAreSanitisedTheSameWayOnCallAndResult() {
        for (String raw : List.of("functions.Bash:0", "call|abc", "x".repeat(70))) {
            var body = new OpenAiChatCodec().encodeRequest(new MessagesInbound().decodeRequest(Fixtures.parse("""
                    {"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"},
                     {"role":"assistant","content":[{"type":"tool_use","id":"%s","name":"f","input":{}}]},
                     {"role":"user","content":[{"type":"tool_result","tool_use_id":"%s","content":"ok"}]}]}""".formatted(raw, raw))),
                    "gpt", false).body();
            String callId = body.at("/messages/1/tool_calls/0/id").asText();
            assertThat(callId).isEqualTo(body.at("/messages/2/tool_call_id").asText()).matches("^[a-zA-Z0-9_-]{1,40}$");
        }
        assertThat(ToolCallIds.sanitize("call|abc", 40)).isNotEqualTo(ToolCallIds.sanitize("call_abc", 40));
        assertThat(ToolCallIds.sanitize("toolu_01ABC", 40)).isEqualTo("toolu_01ABC");
    }

    @Test
    void item9_streamedCacheWriteAndReadAreReportedOnceAndAddUp() {
        String upstream = """
                event: message_start
                data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"c","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"cache_read_input_tokens":100,"cache_creation_input_tokens":50,"cache_creation":{"ephemeral_5m_input_tokens":20,"ephemeral_1h_input_tokens":30},"output_tokens":1}}}

                event: content_block_start
                data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

                event: content_block_delta
                data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}

                event: content_block_stop
                data: {"type":"content_block_stop","index":0}

                event: message_delta
                data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":12}}

                event: message_stop
                data: {"type":"message_stop"}

                """;
        var decoder = new AnthropicCodec().newStreamDecoder();
        List<StreamEvent> events = new ArrayList<>();
        for (SseEvent e : Replay.frames(upstream)) decoder.decode(e, events::add);
        var u = Replay.chat(Replay.encode(new ChatInbound(), USAGE, new Replay.Decoded(events, null))).usage().orElseThrow();
        assertThat(u.promptTokens()).isEqualTo(157);
        assertThat(u.promptTokensDetails().orElseThrow().cachedTokens()).contains(100L);
        assertThat(u.completionTokens()).isEqualTo(12);
        assertThat(u.totalTokens()).isEqualTo(169);
        Message m = Replay.messages(Replay.encode(new MessagesInbound(), USAGE, new Replay.Decoded(events, null)));
        assertThat(m.usage().cacheCreation().orElseThrow().ephemeral1hInputTokens()).isEqualTo(30);
        assertThat(m.usage().cacheCreation().orElseThrow().ephemeral5mInputTokens()).isEqualTo(20);
    }

    @Test
    void item11_structuredOutputWithNonObjectRootToolsAndThinking() {
        var body = new AnthropicCodec().encodeRequest(new ChatInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","max_tokens":5000,"reasoning_effort":"low","messages":[{"role":"user","content":"list"}],
                 "tools":[{"type":"function","function":{"name":"f"}}],
                 "response_format":{"type":"json_schema","json_schema":{"name":"l","schema":{"type":"array"}}}}""")), "claude", false).body();
        assertThat(body.at("/output_config/format/schema/type").asText()).isEqualTo("array");
        assertThat(body.at("/thinking/type").asText()).isEqualTo("enabled");
        assertThat(body.at("/tools/0/name").asText()).isEqualTo("f");
    }

    @Test
    void chatStreamHasRoleFirstDoneLastAndNoEventNames() {
        var d = Replay.decode(new AnthropicCodec(), "anthropic/stream-text-plain.sse");
        Buffer out = Buffer.buffer();
        var enc = new ChatInbound().newStreamEncoder("pub", USAGE);
        d.events().forEach(e -> enc.encode(e, out));
        List<SseEvent> frames = Replay.frames(out.toString());
        assertThat(frames.getFirst().data()).contains("\"delta\":{\"role\":\"assistant\"");
        assertThat(frames.getLast().data()).isEqualTo("[DONE]");
        assertThat(frames).allSatisfy(f -> assertThat(f.event()).isNull());
        assertThat(frames).filteredOn(f -> f.data().contains("\"model\":\"pub\"")).hasSize(frames.size() - 1);
    }
}
