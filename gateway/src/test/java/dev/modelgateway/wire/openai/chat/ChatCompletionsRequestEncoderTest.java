package dev.modelgateway.wire.openai.chat;

import dev.modelgateway.canonical.ToolCallIds;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.qwen.QwenCodec;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Messages requests → OpenAI and Qwen chat bodies. */
class ChatCompletionsRequestEncoderTest {
    static final String CONVERSATION = """
            {"model":"m","max_tokens":300,"system":"Be terse.","stop_sequences":["END"],
             "thinking":{"type":"enabled","budget_tokens":2048},
             "messages":[
              {"role":"user","content":"Files?"},
              {"role":"assistant","content":[
                {"type":"thinking","thinking":"I should list","signature":"ASIG"},
                {"type":"text","text":"Listing."},
                {"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9aaaaaaaaaaaaaaaa","name":"ls","input":{"dir":"/"}},
                {"type":"tool_use","id":"toolu_2","name":"shot","input":{}}]},
              {"role":"user","content":[
                {"type":"tool_result","tool_use_id":"toolu_01A09q90qw90lq917835lq9aaaaaaaaaaaaaaaa","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},
                {"type":"tool_result","tool_use_id":"toolu_2","is_error":true,"content":[{"type":"text","text":"no screen"},
                   {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBOR"}}]},
                {"type":"text","text":"Go on"}]}],
             "tools":[{"name":"ls","input_schema":{"type":"object","properties":{"dir":{"type":"string"}}}},
                      {"name":"shot","input_schema":{"type":"object"}}],
             "tool_choice":{"type":"auto","disable_parallel_tool_use":true},
             "metadata":{"user_id":"u1"},"service_tier":"auto"}""";

    private static String longId() {
        return ToolCallIds.sanitize("toolu_01A09q90qw90lq917835lq9aaaaaaaaaaaaaaaa", 40);
    }

    @Test
    void openAiGetsToolMessagesThenUserAndNoReasoningReplay() {
        EncodedRequest call = new OpenAiChatCodec().encodeRequest(new MessagesInbound().decodeRequest(Fixtures.parse(CONVERSATION)), "gpt-x", true);
        assertThat(call.path()).isEqualTo("/chat/completions");
        String id = longId();
        assertThat(id).hasSizeLessThanOrEqualTo(40);
        assertThat(call.body()).isEqualTo(Fixtures.parse("""
                {"model":"gpt-x","messages":[
                  {"role":"system","content":"Be terse."},
                  {"role":"user","content":"Files?"},
                  {"role":"assistant","content":"Listing.","tool_calls":[
                    {"id":"%s","type":"function","function":{"name":"ls","arguments":"{\\"dir\\":\\"/\\"}"}},
                    {"id":"toolu_2","type":"function","function":{"name":"shot","arguments":"{}"}}]},
                  {"role":"tool","tool_call_id":"%s","content":"a\\nb"},
                  {"role":"tool","tool_call_id":"toolu_2","content":"Error: no screen"},
                  {"role":"user","content":[{"type":"text","text":"Images returned by the tool calls above:"},
                    {"type":"image_url","image_url":{"url":"data:image/png;base64,iVBOR"}},{"type":"text","text":"Go on"}]}],
                 "tools":[{"type":"function","function":{"name":"ls","parameters":{"type":"object","properties":{"dir":{"type":"string"}}}}},
                          {"type":"function","function":{"name":"shot","parameters":{"type":"object"}}}],
                 "tool_choice":"auto","parallel_tool_calls":false,"max_completion_tokens":300,"stop":["END"],
                 "reasoning_effort":"low","user":"u1","stream":true,"stream_options":{"include_usage":true}}
                """.formatted(id, id)));
        assertThat(call.warnings()).anyMatch(w -> w.startsWith("service_tier:"));
    }

    @Test
    void qwenGetsThinkingSwitchBudgetReasoningReplayAndMaxTokens() {
        EncodedRequest call = new QwenCodec().encodeRequest(new MessagesInbound().decodeRequest(Fixtures.parse(CONVERSATION)), "qwen-plus", false);
        assertThat(call.body().get("enable_thinking").asBoolean()).isTrue();
        assertThat(call.body().get("thinking_budget").asInt()).isEqualTo(2048);
        assertThat(call.body().get("max_tokens").asInt()).isEqualTo(300);
        assertThat(call.body().has("max_completion_tokens")).isFalse();
        assertThat(call.body().at("/messages/2/reasoning_content").asText()).isEqualTo("I should list");
        assertThat(call.body().has("stream_options")).isFalse();
    }

    @Test
    void structuredOutputFromMessagesHasANameAndNoStrictClaim() {
        EncodedRequest call = new OpenAiChatCodec().encodeRequest(new MessagesInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}],
                 "output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"a":{"type":"string"}}}}}}""")),
                "gpt-x", false);
        assertThat(call.body().get("response_format")).isEqualTo(Fixtures.parse("""
                {"type":"json_schema","json_schema":{"name":"response","schema":{"type":"object","properties":{"a":{"type":"string"}}}}}"""));
    }

    @Test
    void qwenTurnsThinkingOffForStructuredOutputAndMarksCacheAndPrefill() {
        EncodedRequest call = new QwenCodec().encodeRequest(new MessagesInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","max_tokens":10,"thinking":{"type":"enabled","budget_tokens":1024},
                 "system":[{"type":"text","text":"long context","cache_control":{"type":"ephemeral"}}],
                 "output_config":{"format":{"type":"json_schema","schema":{"type":"object"}}},
                 "messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"{\\"a\\":"}]}""")), "qwen3.7-plus", false);
        assertThat(call.body().get("enable_thinking").asBoolean()).isFalse();
        assertThat(call.body().at("/messages/0")).isEqualTo(Fixtures.parse(
                "{\"role\":\"system\",\"content\":[{\"type\":\"text\",\"text\":\"long context\",\"cache_control\":{\"type\":\"ephemeral\"}}]}"));
        assertThat(call.body().at("/messages/2")).isEqualTo(Fixtures.parse(
                "{\"role\":\"assistant\",\"content\":\"{\\\"a\\\":\",\"partial\":true}"));
        assertThat(call.warnings()).anyMatch(w -> w.contains("structured output"));
    }

    @Test
    void invalidReplayedArgumentsAreWrappedIntoValidJson() {
        EncodedRequest call = new QwenCodec().encodeRequest(new ChatInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","messages":[{"role":"user","content":"hi"},
                 {"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{\\"a\\": \\"tru"}}]},
                 {"role":"tool","tool_call_id":"c1","content":"x"}]}""")), "qwen-plus", false);
        assertThat(call.body().at("/messages/1/tool_calls/0/function/arguments").asText()).isEqualTo("{\"_raw\":\"{\\\"a\\\": \\\"tru\"}");
    }

    @Test
    void tooManyStopSequencesAndForeignServerToolsAreRejected() {
        assertThatThrownBy(() -> new OpenAiChatCodec().encodeRequest(new MessagesInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","max_tokens":10,"stop_sequences":["1","2","3","4","5"],"messages":[{"role":"user","content":"hi"}]}""")),
                "gpt-x", false)).isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("stop"));
        assertThatThrownBy(() -> new QwenCodec().encodeRequest(new MessagesInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}],
                 "tools":[{"type":"web_search_20250305","name":"web_search","max_uses":3}]}""")),
                "qwen-plus", false)).isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("tools[0]"));
    }

    @Test
    void midConversationSystemStaysInPlaceForChatUpstreams() {
        EncodedRequest call = new OpenAiChatCodec().encodeRequest(new ChatInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","messages":[{"role":"system","content":"A"},{"role":"user","content":"hi"},
                 {"role":"system","content":"B"},{"role":"user","content":"again"}]}""")), "gpt-x", false);
        assertThat(call.body().get("messages")).isEqualTo(Fixtures.parse("""
                [{"role":"system","content":"A"},{"role":"user","content":"hi"},{"role":"system","content":"B"},{"role":"user","content":"again"}]"""));
    }
}
