package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.ToolCallIds;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Chat requests → Anthropic bodies, asserted as exact JSON for the tricky shapes. */
class AnthropicRequestEncoderTest {
    private final AnthropicCodec codec = new AnthropicCodec();

    private EncodedRequest chat(String json) {
        return codec.encodeRequest(new ChatInbound().decodeRequest(Fixtures.parse(json)), "claude-x", false);
    }

    @Test
    void toolTurnIsMergedSystemHoistedEmptyContentDroppedIdsSanitised() {
        EncodedRequest call = chat("""
                {"model":"m","messages":[
                  {"role":"system","content":"Be terse."},
                  {"role":"user","content":"Weather and a file?"},
                  {"role":"assistant","content":"","tool_calls":[
                    {"id":"functions.Bash:0","type":"function","function":{"name":"bash","arguments":"{\\"cmd\\":\\"ls\\"}"}},
                    {"id":"call_2","type":"function","function":{"name":"shot","arguments":""}}]},
                  {"role":"tool","tool_call_id":"functions.Bash:0","content":[{"type":"text","text":"a.txt"},{"type":"text","text":"b.txt"}]},
                  {"role":"tool","tool_call_id":"call_2","content":"done"},
                  {"role":"developer","content":"Answer in French."},
                  {"role":"user","content":[{"type":"text","text":""},{"type":"text","text":"Thanks"}]}
                ]}""");
        String id = ToolCallIds.sanitize("functions.Bash:0", ToolCallIds.ANTHROPIC_MAX);
        assertThat(id).matches("^[a-zA-Z0-9_-]+$").startsWith("functions_Bash_0_");
        assertThat(call.path()).isEqualTo("/v1/messages");
        assertThat(call.headers()).containsEntry("anthropic-version", "2023-06-01");
        assertThat(call.body()).isEqualTo(Fixtures.parse("""
                {"model":"claude-x","max_tokens":4096,
                 "system":[{"type":"text","text":"Be terse."},{"type":"text","text":"Answer in French."}],
                 "messages":[
                  {"role":"user","content":[{"type":"text","text":"Weather and a file?"}]},
                  {"role":"assistant","content":[
                    {"type":"tool_use","id":"%s","name":"bash","input":{"cmd":"ls"}},
                    {"type":"tool_use","id":"call_2","name":"shot","input":{}}]},
                  {"role":"user","content":[
                    {"type":"tool_result","tool_use_id":"%s","content":[{"type":"text","text":"a.txt"},{"type":"text","text":"b.txt"}]},
                    {"type":"tool_result","tool_use_id":"call_2","content":[{"type":"text","text":"done"}]}]},
                  {"role":"user","content":[{"type":"text","text":"Thanks"}]}],
                 "tools":[{"name":"bash","input_schema":{"type":"object","properties":{}}},
                          {"name":"shot","input_schema":{"type":"object","properties":{}}}]}
                """.formatted(id, id)));
        assertThat(call.warnings()).anyMatch(w -> w.startsWith("tools:"));
    }

    @Test
    void toolDefinitionsPassSchemasUnchangedAndChoiceMaps() {
        EncodedRequest call = chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"}],
                 "tools":[{"type":"function","function":{"name":"f","description":"d","strict":true,
                   "parameters":{"type":"object","additionalProperties":false,"anyOf":[{"required":["a"]}],"properties":{"a":{"type":"string"}}}}}],
                 "tool_choice":{"type":"function","function":{"name":"f"}},"parallel_tool_calls":false}""");
        assertThat(call.body().get("tools")).isEqualTo(Fixtures.parse("""
                [{"name":"f","description":"d","input_schema":{"type":"object","additionalProperties":false,
                  "anyOf":[{"required":["a"]}],"properties":{"a":{"type":"string"}}},"strict":true}]"""));
        assertThat(call.body().get("tool_choice")).isEqualTo(Fixtures.parse(
                "{\"type\":\"tool\",\"name\":\"f\",\"disable_parallel_tool_use\":true}"));
        EncodedRequest none = chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"}],"tool_choice":"none",
                 "tools":[{"type":"function","function":{"name":"f"}}]}""");
        assertThat(none.body().get("tool_choice")).isEqualTo(Fixtures.parse("{\"type\":\"none\"}"));
        EncodedRequest required = chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"}],"tool_choice":"required",
                 "tools":[{"type":"function","function":{"name":"f"}}]}""");
        assertThat(required.body().at("/tool_choice/type").asText()).isEqualTo("any");
    }

    @Test
    void maxTokensDefaultsAndThinkingBudgetStaysBelowIt() {
        JsonNode noMax = chat("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").body();
        assertThat(noMax.get("max_tokens").asInt()).isEqualTo(4096);
        JsonNode effortNoMax = chat("{\"model\":\"m\",\"reasoning_effort\":\"high\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}").body();
        assertThat(effortNoMax.get("max_tokens").asInt()).isEqualTo(4096 + 24576);
        assertThat(effortNoMax.get("thinking")).isEqualTo(Fixtures.parse("{\"type\":\"enabled\",\"budget_tokens\":24576}"));
        EncodedRequest small = chat("{\"model\":\"m\",\"reasoning_effort\":\"high\",\"max_completion_tokens\":2000,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(small.body().at("/thinking/budget_tokens").asInt()).isEqualTo(1999);
        assertThat(small.warnings()).anyMatch(w -> w.contains("lowered"));
        EncodedRequest tiny = chat("{\"model\":\"m\",\"reasoning_effort\":\"low\",\"max_tokens\":500,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(tiny.body().has("thinking")).isFalse();
        assertThat(tiny.warnings()).anyMatch(w -> w.contains("thinking disabled"));
        assertThat(chat("{\"model\":\"m\",\"reasoning_effort\":\"none\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .body().get("thinking")).isEqualTo(Fixtures.parse("{\"type\":\"disabled\"}"));
    }

    @Test
    void samplingRulesWithThinkingAndUnmappableParameters() {
        EncodedRequest call = chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":1.5,"top_p":0.9,
                 "stop":["END"," "],"seed":3,"logprobs":true,"user":"u-1"}""");
        assertThat(call.body().get("temperature").asDouble()).isEqualTo(1.0);
        assertThat(call.body().get("stop_sequences")).isEqualTo(Fixtures.parse("[\"END\"]"));
        assertThat(call.body().at("/metadata/user_id").asText()).isEqualTo("u-1");
        assertThat(call.body().has("seed")).isFalse();
        assertThat(call.warnings()).anyMatch(w -> w.startsWith("seed:")).anyMatch(w -> w.startsWith("logprobs:"))
                .anyMatch(w -> w.startsWith("temperature:")).anyMatch(w -> w.startsWith("stop:"));
        assertThatThrownBy(() -> chat("{\"model\":\"m\",\"n\":2,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("n"));
        assertThatThrownBy(() -> chat("""
                {"model":"m","reasoning_effort":"low","tool_choice":"required","tools":[{"type":"function","function":{"name":"f"}}],
                 "messages":[{"role":"user","content":"hi"}]}""")).isInstanceOfSatisfying(GatewayException.class,
                e -> assertThat(e.param()).isEqualTo("tool_choice"));
        EncodedRequest thinking = chat("{\"model\":\"m\",\"reasoning_effort\":\"low\",\"temperature\":0.2,\"max_tokens\":5000,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
        assertThat(thinking.body().has("temperature")).isFalse();
    }

    @Test
    void structuredOutputUsesOutputConfigOrAnInstruction() {
        EncodedRequest schema = chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"}],
                 "response_format":{"type":"json_schema","json_schema":{"name":"x","strict":true,"schema":{"type":"array","items":{"type":"string"}}}}}""");
        assertThat(schema.body().get("output_config")).isEqualTo(Fixtures.parse(
                "{\"format\":{\"type\":\"json_schema\",\"schema\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}"));
        EncodedRequest object = chat("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"response_format\":{\"type\":\"json_object\"}}");
        assertThat(object.body().at("/system/0/text").asText()).isEqualTo(AnthropicRequestEncoder.JSON_OBJECT_INSTRUCTION);
    }

    @Test
    void imagesUrlsAndDataUrlsAndImagesInToolResults() {
        EncodedRequest call = chat("""
                {"model":"m","messages":[
                  {"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;charset=binary;base64,iVBOR","detail":"high"}},
                                             {"type":"image_url","image_url":{"url":"https://example.com/a.jpg"}},
                                             {"type":"file","file":{"file_data":"data:application/pdf;base64,JVBER","filename":"a.pdf"}}]},
                  {"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"shot","arguments":"{}"}}]},
                  {"role":"tool","tool_call_id":"c1","content":[{"type":"image_url","image_url":{"url":"data:image/jpeg;base64,/9j/"}}]}]}""");
        assertThat(call.body().at("/messages/0/content")).isEqualTo(Fixtures.parse("""
                [{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBOR"}},
                 {"type":"image","source":{"type":"url","url":"https://example.com/a.jpg"}},
                 {"type":"document","source":{"type":"base64","media_type":"application/pdf","data":"JVBER"},"title":"a.pdf"}]"""));
        assertThat(call.body().at("/messages/2/content/0/content/0")).isEqualTo(Fixtures.parse(
                "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/jpeg\",\"data\":\"/9j/\"}}"));
        assertThatThrownBy(() -> chat("""
                {"model":"m","messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"AAA","format":"wav"}}]}]}"""))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("messages[0].content[0]"));
    }

    @Test
    void foreignReasoningIsNotReplayedButAnthropicSignaturesAre() {
        EncodedRequest call = codec.encodeRequest(new MessagesInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","max_tokens":100,"messages":[{"role":"user","content":"q"},
                  {"role":"assistant","content":[
                    {"type":"thinking","thinking":"","signature":"gemini-call:GSIG"},
                    {"type":"thinking","thinking":"qwen said","signature":""},
                    {"type":"thinking","thinking":"claude said","signature":"ASIG"},
                    {"type":"redacted_thinking","data":"RED"},
                    {"type":"text","text":"   "},
                    {"type":"text","text":"answer"}]},
                  {"role":"assistant","content":[{"type":"text","text":"prefill"}]}]}""")), "claude", true);
        assertThat(call.body().at("/messages/1/content")).isEqualTo(Fixtures.parse("""
                [{"type":"thinking","thinking":"claude said","signature":"ASIG"},{"type":"redacted_thinking","data":"RED"},
                 {"type":"text","text":"answer"}]"""));
        assertThat(call.body().at("/messages/2/content/0/text").asText()).isEqualTo("prefill");
        assertThat(call.body().get("stream").asBoolean()).isTrue();
        assertThat(call.warnings()).anyMatch(w -> w.contains("another vendor"));
    }
}
