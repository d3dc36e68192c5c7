package dev.modelgateway.wire.openai.chat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.ToolChoice;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChatRequestDecoderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ChatInbound inbound = new ChatInbound();

    private CanonicalRequest decode(String json) throws Exception {
        return inbound.decodeRequest(JSON.readTree(json));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"messages\":[]}|model",
            "{\"model\":\"m\"}|messages",
            "{\"model\":\"m\",\"messages\":[]}|messages",
            "{\"model\":\"m\",\"messages\":{}}|messages",
            "{\"model\":\"m\",\"messages\":[\"hi\"]}|messages[0]",
            "{\"model\":\"m\",\"messages\":[{\"content\":\"hi\"}]}|messages[0].role",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"robot\",\"content\":\"hi\"}]}|messages[0].role",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":\"user\",\"content\":5}]}|messages[1].content",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"video\"}]}]}|messages[0].content[0].type",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"ftp://x\"}}]}]}|messages[0].content[0].image_url.url",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}|messages[0].tool_call_id",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"a\",\"function\":{}}]}]}|messages[0].tool_calls[0].function.name",
            "{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":[{\"type\":\"image_url\"}]}]}|messages[0].content[0].type",
            "{\"model\":\"m\",\"max_tokens\":\"ten\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|max_tokens",
            "{\"model\":\"m\",\"temperature\":\"hot\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|temperature",
            "{\"model\":\"m\",\"tool_choice\":\"sometimes\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|tool_choice",
            "{\"model\":\"m\",\"response_format\":{\"type\":\"yaml\"},\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|response_format.type",
            "{\"model\":\"m\",\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":[]}}],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|tools[0].function.parameters",
            "{\"model\":\"m\",\"stop\":[1],\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}|stop[0]",
    })
    void malformedShapesAre400NamingTheField(String body, String param) {
        assertThatThrownBy(() -> decode(body)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
            assertThat(e.param()).isEqualTo(param);
            assertThat(inbound.encodeError(e).at("/error/param").asText()).isEqualTo(param);
        });
    }

    @Test
    void systemMessagesLeadingAreHoistedLaterOnesStayInPlace() throws Exception {
        CanonicalRequest r = decode("""
                {"model":"m","messages":[{"role":"developer","content":"A"},{"role":"system","content":[{"type":"text","text":"B"}]},
                 {"role":"user","content":"hi"},{"role":"system","content":"C"},{"role":"user","content":"again"}],
                 "platform_options":{"x":1},"seed":4}""");
        assertThat(r.system()).extracting(ContentBlock.Text::text).containsExactly("A", "B");
        assertThat(r.messages()).extracting(m -> m.role()).containsExactly(Role.USER, Role.SYSTEM, Role.USER);
        assertThat(r.unmapped().fields().has("platform_options")).isFalse();
        assertThat(r.unmapped().fields().get("seed").asInt()).isEqualTo(4);
    }

    @Test
    void toolMessagesAndFollowingUserTextBecomeOneUserTurn() throws Exception {
        CanonicalRequest r = decode("""
                {"model":"m","messages":[{"role":"user","content":"q"},
                 {"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},
                                                                  {"id":"b","type":"function","function":{"name":"f","arguments":"{}"}}]},
                 {"role":"tool","tool_call_id":"a","content":"1"},{"role":"tool","tool_call_id":"b","content":"2"},
                 {"role":"user","content":"thanks"}]}""");
        assertThat(r.messages()).hasSize(3);
        assertThat(r.messages().get(2).content()).hasSize(3);
        assertThat(r.messages().get(2).content().get(0)).isInstanceOf(ContentBlock.ToolResult.class);
        assertThat(r.messages().get(2).content().get(2)).isEqualTo(new ContentBlock.Text("thanks"));
    }

    @Test
    void parametersMapToCanonicalSlots() throws Exception {
        CanonicalRequest r = decode("""
                {"model":"m","messages":[{"role":"user","content":"hi"}],"max_tokens":10,"max_completion_tokens":20,
                 "tool_choice":"required","parallel_tool_calls":false,"stream":true,"stream_options":{"include_usage":true},
                 "enable_thinking":true,"thinking_budget":500,"stop":"X"}""");
        assertThat(r.maxTokens()).isEqualTo(20);
        assertThat(r.toolChoice()).isEqualTo(ToolChoice.REQUIRED);
        assertThat(r.parallelToolCalls()).isFalse();
        assertThat(r.stream()).isTrue();
        assertThat(r.includeUsage()).isTrue();
        assertThat(r.reasoning()).isEqualTo(new ReasoningConfig(ReasoningConfig.Mode.ENABLED, 500, null));
        assertThat(r.stop()).containsExactly("X");
    }

    @Test
    void thinkingBlocksCarryOriginsAndGeminiCallSignaturesAttachToCalls() throws Exception {
        CanonicalRequest r = decode("""
                {"model":"m","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"x","reasoning_content":"ignored",
                 "thinking_blocks":[{"type":"thinking","thinking":"a","signature":"ASIG"},{"type":"thinking","thinking":"g","signature":"gemini:GS"},
                                    {"type":"thinking","thinking":"","signature":"gemini-call:CS"},{"type":"redacted_thinking","data":"R"}],
                 "tool_calls":[{"id":"t","type":"function","function":{"name":"f","arguments":"{}"}}]}]}""");
        var content = r.messages().get(1).content();
        assertThat(content).containsExactly(
                new ContentBlock.Thinking("a", "ASIG", SignatureOrigin.ANTHROPIC),
                new ContentBlock.Thinking("g", "GS", SignatureOrigin.GEMINI),
                new ContentBlock.RedactedThinking("R"),
                new ContentBlock.Text("x"),
                new ContentBlock.ToolUse("t", "f", "{}", "CS", null));
    }
}
