package dev.modelgateway.wire.anthropic;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.MediaKind;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.ResponseFormat;
import dev.modelgateway.canonical.ToolChoice;
import dev.modelgateway.error.GatewayException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MessagesRequestDecoderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final MessagesInbound inbound = new MessagesInbound();

    private CanonicalRequest decode(String json) throws Exception {
        return inbound.decodeRequest(JSON.readTree(json));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"model\":\"m\",\"messages\":[]}|max_tokens",
            "{\"model\":\"m\",\"max_tokens\":5}|messages",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\"}]}|messages[0].content",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}|messages[0].role",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}]}|messages[0].content[0].text",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"ftp\"}}]}]}|messages[0].content[0].source.type",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"f\",\"input\":\"x\"}]}]}|messages[0].content[0].input",
            "{\"model\":\"m\",\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\"}]}]}|messages[0].content[0].tool_use_id",
            "{\"model\":\"m\",\"max_tokens\":5,\"system\":[{\"type\":\"image\"}],\"messages\":[]}|system[0].type",
            "{\"model\":\"m\",\"max_tokens\":5,\"thinking\":{\"type\":\"enabled\"},\"messages\":[]}|thinking.budget_tokens",
            "{\"model\":\"m\",\"max_tokens\":5,\"tool_choice\":{\"type\":\"maybe\"},\"messages\":[]}|tool_choice.type",
            "{\"model\":\"m\",\"max_tokens\":5,\"tools\":[{\"name\":\"f\"}],\"messages\":[]}|tools[0].input_schema",
    })
    void malformedShapesAre400NamingTheField(String body, String param) {
        assertThatThrownBy(() -> decode(body)).isInstanceOfSatisfying(GatewayException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.param()).isEqualTo(param);
            assertThat(inbound.encodeError(e).at("/error/type").asText()).isEqualTo("invalid_request_error");
        });
    }

    @Test
    void fieldsMapToCanonicalSlotsAndVendorExtrasAreKept() throws Exception {
        CanonicalRequest r = decode("""
                {"model":"m","max_tokens":100,"system":"S","stream":true,
                 "thinking":{"type":"adaptive"},"output_config":{"effort":"high","format":{"type":"json_schema","schema":{"type":"object"}}},
                 "tool_choice":{"type":"any","disable_parallel_tool_use":true},"metadata":{"user_id":"u"},"service_tier":"auto",
                 "tools":[{"name":"f","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral","ttl":"1h"}},
                          {"type":"web_search_20250305","name":"web_search"}],
                 "messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","media_type":"text/plain","data":"hello"}},
                                                       {"type":"image","source":{"type":"url","url":"https://x/y.png"}}]}]}""");
        assertThat(r.reasoning()).isEqualTo(new ReasoningConfig(ReasoningConfig.Mode.ADAPTIVE, null, "high"));
        assertThat(r.responseFormat()).isInstanceOf(ResponseFormat.JsonSchema.class);
        assertThat(r.toolChoice()).isEqualTo(ToolChoice.REQUIRED);
        assertThat(r.parallelToolCalls()).isFalse();
        assertThat(r.user()).isEqualTo("u");
        assertThat(r.tools().getFirst().cache().ttl()).isEqualTo("1h");
        assertThat(r.vendorTools()).hasSize(1);
        assertThat(r.unmapped().fields().has("service_tier")).isTrue();
        assertThat(r.unmapped().fields().has("output_config")).isFalse();
        assertThat(r.messages().getFirst().content().getFirst()).isInstanceOfSatisfying(ContentBlock.Media.class,
                m -> assertThat(m.mediaType()).isEqualTo("text/plain"));
        assertThat(r.urlMedia()).extracting(ContentBlock.Media::url).containsExactly("https://x/y.png");
        assertThat(r.urlMedia().getFirst().kind()).isEqualTo(MediaKind.IMAGE);
    }
}
