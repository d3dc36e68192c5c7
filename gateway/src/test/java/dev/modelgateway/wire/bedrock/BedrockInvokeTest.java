package dev.modelgateway.wire.bedrock;

import com.anthropic.backends.Backend;
import com.anthropic.bedrock.backends.BedrockBackend;
import com.anthropic.core.http.HttpRequest;
import com.anthropic.core.http.HttpResponse;
import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.ObjectMappers;
import com.anthropic.models.beta.messages.MessageCreateParams;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelgateway.json.Json;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Invoke body against the oracle: what Anthropic's official Java client sends through its {@code BedrockBackend}
 * for the same messages call, field for field, and the caller's body otherwise untouched.
 */
class BedrockInvokeTest {
    private static final String MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    private static final String ANSWER = "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":"
            + "[{\"type\":\"text\",\"text\":\"hi\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,"
            + "\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}";
    private static CapturingServer server;
    private static AnthropicClient direct;
    private static AnthropicClient bedrock;

    /** Bodies as a caller sends them: text, tools, thinking replayed with its signature, cache control, images, a system entry mid-conversation, structured output. */
    private static final List<String> BODIES = List.of(
            """
            {"model":"%s","max_tokens":256,"messages":[{"role":"user","content":"Hello"}]}""",
            """
            {"model":"%s","max_tokens":4096,"thinking":{"type":"enabled","budget_tokens":2048},
             "system":[{"type":"text","text":"You are terse.","cache_control":{"type":"ephemeral","ttl":"1h"}}],
             "tools":[{"name":"get_weather","description":"Weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}},
                       "cache_control":{"type":"ephemeral"}}],
             "messages":[{"role":"user","content":"Weather in Paris?"},
                         {"role":"assistant","content":[{"type":"thinking","thinking":"Let me check.","signature":"EqQBCkYIBxgCKkD+sig=="},
                                                        {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Paris"}}]},
                         {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"18C",
                                                    "cache_control":{"type":"ephemeral"}}]}]}""",
            """
            {"model":"%s","max_tokens":512,"thinking":{"type":"adaptive"},
             "messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},
                                                   {"type":"text","text":"What is this?"}]},
                         {"role":"assistant","content":[{"type":"redacted_thinking","data":"EmwKAhgBEgy3"},{"type":"text","text":"A pixel."}]},
                         {"role":"system","content":"From now on answer in French."},
                         {"role":"user","content":"Et maintenant ?"}]}""",
            """
            {"model":"%s","max_tokens":300,"temperature":0.5,"stop_sequences":["END"],"metadata":{"user_id":"u1"},
             "output_config":{"format":{"type":"json_schema","schema":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}}},
             "messages":[{"role":"user","content":"json please"}]}""");

    @BeforeAll
    static void start() throws Exception {
        server = new CapturingServer(ANSWER);
        direct = AnthropicOkHttpClient.builder().apiKey("k").baseUrl(server.url()).maxRetries(0).build();
        BedrockBackend aws = BedrockBackend.builder()
                .awsCredentials(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")).region(Region.US_EAST_1).build();
        bedrock = AnthropicOkHttpClient.builder().backend(new Local(aws, server.url())).maxRetries(0).build();
    }

    @AfterAll
    static void stop() {
        direct.close();
        bedrock.close();
        server.close();
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void theBodyIsWhatAnthropicsBedrockClientSends(int which) throws Exception {
        String json = BODIES.get(which).formatted(MODEL);
        List<String> betas = which == 1 ? List.of("interleaved-thinking-2025-05-14", "context-1m-2025-08-07") : List.of();
        CapturingServer.Captured sentDirect = send(direct, json, betas);
        CapturingServer.Captured sentBedrock = send(bedrock, json, betas);

        String betaHeader = header(sentDirect, "anthropic-beta");
        ObjectNode callerBody = (ObjectNode) Json.MAPPER.readTree(sentDirect.body());
        Buffer ours = BedrockInvoke.body(callerBody.deepCopy(), betaHeader);

        // the same path, written differently: Anthropic's client leaves ':' as it is (legal in a path segment), the AWS SDK,
        // the oracle of the path (BedrockModelIdTest), writes %3A
        assertThat(decoded(sentBedrock.rawPath())).isEqualTo(decoded(BedrockInvoke.path(BedrockModelId.parse(MODEL), false)));
        assertThat(withoutVersion(ours.getBytes())).isEqualTo(withoutVersion(sentBedrock.body()));
        assertThat(Json.MAPPER.readTree(ours.getBytes()).path("anthropic_version").asText()).isEqualTo("bedrock-2023-05-31");
        assertThat(header(sentBedrock, "anthropic-beta")).isNull();
        assertThat(header(sentBedrock, "anthropic-version")).isNull();
        // everything but the moved fields is the caller's, as it came
        ObjectNode back = (ObjectNode) Json.MAPPER.readTree(ours.getBytes());
        back.remove(List.of("anthropic_version", "anthropic_beta"));
        callerBody.remove(List.of("model", "stream"));
        assertThat(back).isEqualTo(callerBody);
    }

    @Test
    void aStreamGoesToTheStreamOperationWithoutStreamInTheBody() throws Exception {
        String json = BODIES.getFirst().formatted(MODEL);
        MessageCreateParams params = params(json, List.of());
        try (var stream = bedrock.beta().messages().createStreaming(params)) {
            stream.stream().count();
        } catch (RuntimeException expected) {
            // the capturing server answers JSON, not an event stream
        }
        assertThat(decoded(server.last().rawPath())).isEqualTo(decoded(BedrockInvoke.path(BedrockModelId.parse(MODEL), true)));
        ObjectNode callerBody = (ObjectNode) Json.MAPPER.readTree(json);
        callerBody.put("stream", true);
        JsonNode ours = Json.MAPPER.readTree(BedrockInvoke.body(callerBody, null).getBytes());
        assertThat(withoutVersion(Json.toBuffer(ours).getBytes())).isEqualTo(withoutVersion(server.last().body()));
        assertThat(ours.has("stream")).isFalse();
    }

    @Test
    void aVersionTheCallerSetIsKeptAndBetasMerge() {
        ObjectNode body = Json.MAPPER.createObjectNode().put("anthropic_version", "bedrock-2099-01-01");
        body.putArray("anthropic_beta").add("a");
        BedrockInvoke.adapt(body, "a, b");
        assertThat(body.toString()).isEqualTo("{\"anthropic_version\":\"bedrock-2099-01-01\",\"anthropic_beta\":[\"a\",\"b\"]}");
    }

    /** Anthropic's Bedrock backend with its host replaced by the capturing server's (the builder takes no base URL with a backend). */
    private record Local(BedrockBackend aws, String url) implements Backend {
        @Override
        public String baseUrl() {
            return url;
        }

        @Override
        public HttpRequest prepareRequest(HttpRequest request) {
            return aws.prepareRequest(request);
        }

        @Override
        public HttpRequest authorizeRequest(HttpRequest request) {
            return aws.authorizeRequest(request);
        }

        @Override
        public HttpResponse prepareResponse(HttpResponse response) {
            return aws.prepareResponse(response);
        }

        @Override
        public void close() {
            aws.close();
        }
    }

    /**
     * The body without {@code anthropic_version}, where the oracle and Bedrock's documentation part: Anthropic's client
     * (3.12.0) moves its own {@code anthropic-version} header into the body (here {@code 2026-10-21}), while Bedrock's
     * user guide ("Anthropic Claude Messages API") requires {@code bedrock-2023-05-31}, which the gateway sends.
     */
    private static JsonNode withoutVersion(byte[] body) throws Exception {
        ObjectNode tree = (ObjectNode) Json.MAPPER.readTree(body);
        tree.remove("anthropic_version");
        return tree;
    }

    private static String header(CapturingServer.Captured sent, String name) {
        return sent.headers().entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                .map(e -> String.join(",", e.getValue())).findFirst().orElse(null);
    }

    private static String decoded(String path) {
        return java.net.URLDecoder.decode(path, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static CapturingServer.Captured send(AnthropicClient client, String json, List<String> betas) throws Exception {
        client.beta().messages().create(params(json, betas));
        return server.last();
    }

    private static MessageCreateParams params(String json, List<String> betas) throws Exception {
        MessageCreateParams.Body body = ObjectMappers.jsonMapper().readValue(json, MessageCreateParams.Body.class);
        MessageCreateParams.Builder b = MessageCreateParams.builder().body(body);
        betas.forEach(b::addBeta);
        return b.build();
    }
}
