package dev.modelgateway.wire.gemini;

import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.openai.chat.ChatInbound;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GeminiRequestEncoderTest {
    private final GeminiCodec codec = new GeminiCodec();

    private EncodedRequest messages(String json, String model, boolean stream) {
        return codec.encodeRequest(new MessagesInbound().decodeRequest(Fixtures.parse(json)), model, stream);
    }

    private EncodedRequest chat(String json, String model) {
        return codec.encodeRequest(new ChatInbound().decodeRequest(Fixtures.parse(json)), model, false);
    }

    @Test
    void messagesRequestBecomesContentsWithFunctionResponseNamesAndReplayedSignature() {
        EncodedRequest call = messages("""
                {"model":"m","max_tokens":256,"system":[{"type":"text","text":"Be terse.","cache_control":{"type":"ephemeral"}}],
                 "messages":[
                  {"role":"user","content":"Weather in Paris?"},
                  {"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBOR"}}]},
                  {"role":"assistant","content":[
                    {"type":"thinking","thinking":"Let me check","signature":"gemini:TSIG"},
                    {"type":"text","text":"Checking."},
                    {"type":"thinking","thinking":"","signature":"gemini-call:CSIG"},
                    {"type":"tool_use","id":"call_abc","name":"get_weather","input":{"city":"Paris"}}]},
                  {"role":"user","content":[
                    {"type":"tool_result","tool_use_id":"call_abc","content":[{"type":"text","text":"18C"}]},
                    {"type":"text","text":"And tomorrow?"}]}],
                 "tools":[{"name":"get_weather","input_schema":{"type":"object","additionalProperties":false,
                   "properties":{"city":{"type":"string","default":"Paris"}},"required":["city"]}}]}""", "gemini-2.5-flash", true);
        assertThat(call.path()).isEqualTo("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
        assertThat(call.body()).isEqualTo(Fixtures.parse("""
                {"systemInstruction":{"parts":[{"text":"Be terse."}]},
                 "contents":[
                  {"role":"user","parts":[{"text":"Weather in Paris?"},{"inlineData":{"mimeType":"image/png","data":"iVBOR"}}]},
                  {"role":"model","parts":[
                    {"text":"Let me check","thought":true,"thoughtSignature":"TSIG"},
                    {"text":"Checking."},
                    {"functionCall":{"name":"get_weather","args":{"city":"Paris"}},"thoughtSignature":"CSIG"}]},
                  {"role":"user","parts":[
                    {"functionResponse":{"name":"get_weather","response":{"output":"18C"}}},
                    {"text":"And tomorrow?"}]}],
                 "tools":[{"functionDeclarations":[{"name":"get_weather","parametersJsonSchema":{"type":"object",
                   "additionalProperties":false,"properties":{"city":{"type":"string","default":"Paris"}},"required":["city"]}}]}],
                 "generationConfig":{"maxOutputTokens":256}}"""));
    }

    @Test
    void textPartSignatureGoesBackOnTheTextPart() {
        EncodedRequest call = messages("""
                {"model":"m","max_tokens":10,"messages":[{"role":"user","content":"q"},
                  {"role":"assistant","content":[{"type":"text","text":"A"},{"type":"thinking","thinking":"","signature":"gemini:XSIG"}]},
                  {"role":"user","content":"again"}]}""", "gemini-2.5-pro", false);
        assertThat(call.path()).isEqualTo("/v1beta/models/gemini-2.5-pro:generateContent");
        assertThat(call.body().at("/contents/1/parts")).isEqualTo(Fixtures.parse("[{\"text\":\"A\",\"thoughtSignature\":\"XSIG\"}]"));
    }

    @Test
    void subsetSchemaModeSanitisesWhatGeminiRejects() {
        EncodedRequest call = new GeminiCodec(true).encodeRequest(new ChatInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","messages":[{"role":"user","content":"hi"}],
                 "tools":[{"type":"function","function":{"name":"f","parameters":{
                   "$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,
                   "$defs":{"Unit":{"type":"string","enum":["c","f"]}},
                   "properties":{"unit":{"$ref":"#/$defs/Unit"},"mode":{"const":"fast"},"n":{"type":["integer","null"],"default":1}}}}}]}""")),
                "gemini-2.0-flash", false);
        assertThat(call.body().at("/tools/0/functionDeclarations/0/parameters")).isEqualTo(Fixtures.parse("""
                {"type":"object","properties":{"unit":{"type":"string","enum":["c","f"]},"mode":{"enum":["fast"]},
                 "n":{"type":"integer","nullable":true}}}"""));
        assertThat(call.body().at("/tools/0/functionDeclarations/0").has("parametersJsonSchema")).isFalse();
    }

    @Test
    void toolChoiceAndResponseFormatAndReasoning() {
        EncodedRequest call = chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f"}}],
                 "tool_choice":{"type":"function","function":{"name":"f"}},"reasoning_effort":"medium","stop":["X"],"seed":7,
                 "response_format":{"type":"json_schema","json_schema":{"name":"r","schema":{"type":"object"}}}}""", "gemini-2.5-flash");
        assertThat(call.body().get("toolConfig")).isEqualTo(Fixtures.parse(
                "{\"functionCallingConfig\":{\"mode\":\"ANY\",\"allowedFunctionNames\":[\"f\"]}}"));
        assertThat(call.body().get("generationConfig")).isEqualTo(Fixtures.parse("""
                {"stopSequences":["X"],"responseMimeType":"application/json","responseJsonSchema":{"type":"object"},
                 "thinkingConfig":{"includeThoughts":true,"thinkingBudget":8192},"seed":7}"""));
        EncodedRequest g3 = chat("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"reasoning_effort\":\"low\"}",
                "gemini-3-pro-preview");
        assertThat(g3.body().at("/generationConfig/thinkingConfig")).isEqualTo(Fixtures.parse(
                "{\"includeThoughts\":true,\"thinkingLevel\":\"LOW\"}"));
        assertThat(chat("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"tool_choice\":\"none\",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}]}",
                "gemini-2.5-flash").body().at("/toolConfig/functionCallingConfig/mode").asText()).isEqualTo("NONE");
    }

    @Test
    void gemini3CallsWithoutSignatureGetThePlaceholder() {
        EncodedRequest call = chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"},
                 {"role":"assistant","tool_calls":[{"id":"toolu_1","type":"function","function":{"name":"f","arguments":"{}"}},
                                                   {"id":"toolu_2","type":"function","function":{"name":"f","arguments":"{}"}}]},
                 {"role":"tool","tool_call_id":"toolu_1","content":"a"},{"role":"tool","tool_call_id":"toolu_2","content":"b"}]}""",
                "gemini-3-flash-preview");
        assertThat(call.body().at("/contents/1/parts/0/thoughtSignature").asText()).isEqualTo(GeminiRequestEncoder.SKIP_SIGNATURE);
        assertThat(call.body().at("/contents/1/parts/1").has("thoughtSignature")).isFalse();
        assertThat(call.body().at("/contents/2/parts")).hasSize(2);
    }

    @Test
    void chatCarriedSignatureOnToolCallIsReplayed() {
        EncodedRequest call = chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"},
                 {"role":"assistant","content":null,"tool_calls":[{"id":"call_x","type":"function","function":{"name":"f","arguments":"{\\"a\\":1}"},
                   "extra_content":{"google":{"thought_signature":"SIG1"}}}]},
                 {"role":"tool","tool_call_id":"call_x","content":"ok"}]}""", "gemini-3-pro-preview");
        assertThat(call.body().at("/contents/1/parts/0")).isEqualTo(Fixtures.parse(
                "{\"functionCall\":{\"name\":\"f\",\"args\":{\"a\":1}},\"thoughtSignature\":\"SIG1\"}"));
    }

    @Test
    void badInputsAreRejectedNamingTheField() {
        assertThatThrownBy(() -> chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"nope","content":"x"}]}""", "gemini-2.5-flash"))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("messages[1].content[0].tool_use_id"));
        assertThatThrownBy(() -> chat("""
                {"model":"m","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"a.b"}}]}""", "gemini-2.5-flash"))
                .isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("tools[0].name"));
        assertThatThrownBy(() -> chat("{\"model\":\"m\",\"stop\":[\"1\",\"2\",\"3\",\"4\",\"5\",\"6\"],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
                "gemini-2.5-flash")).isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.param()).isEqualTo("stop"));
    }

    @Test
    void urlMediaNeedsBytesUnlessGeminiCanFetchIt() {
        var req = new ChatInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","messages":[{"role":"user","content":[
                  {"type":"image_url","image_url":{"url":"https://example.com/cat.png"}},
                  {"type":"image_url","image_url":{"url":"gs://bucket/dog.png"}}]}]}"""));
        var needed = req.urlMediaNeedingBytes(codec::canForwardUrl);
        assertThat(needed).extracting(m -> m.url()).containsExactly("https://example.com/cat.png");
        var inlined = req.withInlinedMedia(Map.of("https://example.com/cat.png",
                ContentBlock.Media.base64(MediaKind.IMAGE, "image/png", "AAAA")));
        assertThat(codec.encodeRequest(inlined, "gemini-2.5-flash", false).body().at("/contents/0/parts")).isEqualTo(Fixtures.parse("""
                [{"inlineData":{"mimeType":"image/png","data":"AAAA"}},{"fileData":{"fileUri":"gs://bucket/dog.png"}}]"""));
    }
}
