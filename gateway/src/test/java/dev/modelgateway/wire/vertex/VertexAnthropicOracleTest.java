package dev.modelgateway.wire.vertex;

import com.anthropic.backends.Backend;
import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.ObjectMappers;
import com.anthropic.core.http.HttpRequest;
import com.anthropic.core.http.StreamResponse;
import com.anthropic.models.messages.MessageCountTokensParams;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import com.anthropic.vertex.backends.VertexBackend;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.anthropic.AnthropicCodec;
import dev.modelgateway.wire.anthropic.AnthropicTokenCount;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Date;
import java.util.Iterator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Anthropic's official Vertex client (anthropic-java-vertex's {@code VertexBackend}) as the oracle of the rawPredict
 * wire: the same messages call is sent by the plain client (the body a messages caller gives the gateway) and by the
 * Vertex client (what Vertex must receive), both to a capturing server; the gateway's adaptation of the first
 * ({@link VertexAnthropic#prepare}, as the native path applies it) must give the second's path and body, field for
 * field, and keep the headers that matter.
 */
class VertexAnthropicOracleTest {
    private static final String TOKEN = "ya29.fixed-test-token";
    private static final String MODEL = "claude-sonnet-4@20250514";
    private static final VertexLocation AT = new VertexLocation("my-project", "us-east5");
    private static CapturingServer server;
    private static AnthropicClient direct;
    private static AnthropicClient vertex;

    @BeforeAll
    static void clients() {
        server = new CapturingServer();
        direct = AnthropicOkHttpClient.builder().apiKey("sk-test").baseUrl(server.baseUrl()).maxRetries(0).build();
        GoogleCredentials fixed = GoogleCredentials.create(new AccessToken(TOKEN, Date.from(Instant.now().plusSeconds(3600))));
        VertexBackend backend = VertexBackend.builder().googleCredentials(fixed).region(AT.location()).project(AT.project()).build();
        vertex = AnthropicOkHttpClient.builder().backend(new PointedAt(backend, server.baseUrl())).maxRetries(0).build();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Stream<Arguments> calls() {
        return Stream.of(
                Arguments.of("text", """
                        {"model":"%s","max_tokens":256,"system":"Be terse.","messages":[{"role":"user","content":"Hello"}],
                         "temperature":0.2,"metadata":{"user_id":"u-1"}}"""),
                Arguments.of("stream", """
                        {"model":"%s","max_tokens":256,"stream":true,"messages":[{"role":"user","content":"Hello"}]}"""),
                Arguments.of("tools", """
                        {"model":"%s","max_tokens":256,"messages":[{"role":"user","content":"Weather in Paris?"}],
                         "tools":[{"name":"get_weather","description":"Weather now","input_schema":{"type":"object",
                           "properties":{"city":{"type":"string"}},"required":["city"]}}],
                         "tool_choice":{"type":"auto"}}"""),
                Arguments.of("thinking multi-turn with signatures", """
                        {"model":"%s","max_tokens":4096,"thinking":{"type":"enabled","budget_tokens":2048},"messages":[
                          {"role":"user","content":"Weather in Paris?"},
                          {"role":"assistant","content":[
                            {"type":"thinking","thinking":"I should call the tool.","signature":"EqQBCkYIBxgCKkD0sig=="},
                            {"type":"redacted_thinking","data":"EmwKAhgBEgy3redacted"},
                            {"type":"tool_use","id":"toolu_01","name":"get_weather","input":{"city":"Paris"}}]},
                          {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"18C"}]}],
                         "tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]}"""),
                Arguments.of("images", """
                        {"model":"%s","max_tokens":256,"messages":[{"role":"user","content":[
                          {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},
                          {"type":"text","text":"What is this?"}]}]}"""),
                Arguments.of("cache control", """
                        {"model":"%s","max_tokens":256,
                         "system":[{"type":"text","text":"Long instructions.","cache_control":{"type":"ephemeral","ttl":"1h"}}],
                         "messages":[{"role":"user","content":[{"type":"text","text":"Hi","cache_control":{"type":"ephemeral"}}]},
                           {"role":"assistant","content":"Hello."},
                           {"role":"user","content":[{"type":"text","text":"<system-reminder>mid-conversation</system-reminder>"},
                             {"type":"text","text":"Again","cache_control":{"type":"ephemeral"}}]}]}"""),
                Arguments.of("structured output", """
                        {"model":"%s","max_tokens":256,"messages":[{"role":"user","content":"Name a city."}],
                         "output_config":{"format":{"type":"json_schema","schema":{"type":"object",
                           "properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}}}}"""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void gatewayRawPredictEqualsTheOfficialVertexClient(String name, String json) {
        MessageCreateParams params = params(json.formatted(MODEL));
        send(direct, params);
        CapturingServer.Captured caller = server.take();
        send(vertex, params);
        CapturingServer.Captured sdk = server.take();

        // the native path: the caller's body with the deployment's model, then Vertex's adaptation
        ObjectNode gateway = ((ObjectNode) caller.body()).deepCopy().put("model", MODEL);
        String path = VertexAnthropic.prepare(gateway, AT, MODEL);

        assertThat(path).isEqualTo(sdk.path());
        assertThat(gateway).isEqualTo(withGatewayVersion(sdk.body(), caller));
        assertThat(sdk.header("authorization")).isEqualTo("Bearer " + TOKEN);
        assertThat(sdk.header("x-api-key")).isNull();
        assertThat(sdk.header("anthropic-version")).as("the version travels in the body only").isNull();
    }

    /**
     * The one field the gateway sends otherwise: this client (3.12) copies its own {@code anthropic-version} header's
     * value into {@code anthropic_version}; the gateway speaks the 2023-06-01 messages format to vendor A and sends its
     * documented Vertex equivalent, {@code vertex-2023-10-16} (https://docs.claude.com/en/api/claude-on-vertex-ai).
     * Asserted so that a client that changes either way is seen.
     */
    private static JsonNode withGatewayVersion(JsonNode sdkBody, CapturingServer.Captured caller) {
        assertThat(sdkBody.get("anthropic_version").asText()).isEqualTo(caller.header("anthropic-version"));
        return ((ObjectNode) sdkBody).deepCopy().put("anthropic_version", VertexAnthropic.VERSION);
    }

    @Test
    void theModelIdKeepsItsAtSignUnescapedAndStreamingUsesStreamRawPredict() {
        send(vertex, params("""
                {"model":"%s","max_tokens":16,"stream":true,"messages":[{"role":"user","content":"Hi"}]}""".formatted(MODEL)));
        CapturingServer.Captured sdk = server.take();
        assertThat(sdk.path()).isEqualTo("/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict");
        assertThat(sdk.body().get("stream").asBoolean()).isTrue();
        assertThat(sdk.body().has("anthropic_version")).isTrue();
        assertThat(sdk.body().has("model")).isFalse();
    }

    @Test
    void theBetaHeaderStaysAHeader() {
        MessageCreateParams params = params("""
                {"model":"%s","max_tokens":16,"messages":[{"role":"user","content":"Hi"}]}""".formatted(MODEL))
                .toBuilder().putAdditionalHeader("anthropic-beta", "context-1m-2025-08-07").build();
        send(vertex, params);
        CapturingServer.Captured sdk = server.take();
        assertThat(sdk.header("anthropic-beta")).isEqualTo("context-1m-2025-08-07");
        assertThat(sdk.body().has("anthropic_beta")).isFalse();
    }

    @Test
    void theTranslatedPathSendsWhatTheClientSendsForTheSameRequest() {
        String json = """
                {"model":"caller-model","max_tokens":256,"system":"Be terse.","messages":[{"role":"user","content":"Hello"}],
                 "tools":[{"name":"f","input_schema":{"type":"object"}}]}""";
        CanonicalRequest request = new MessagesInbound().decodeRequest(Fixtures.parse(json));
        EncodedRequest onVertex = new VertexAnthropicCodec(AT).encodeRequest(request, MODEL, true);
        // what vendor A's codec sends vendor A directly, sent by the Vertex client
        String toVendorA = new AnthropicCodec().encodeRequest(request, MODEL, true).body().toString();
        send(direct, params(toVendorA));
        CapturingServer.Captured caller = server.take();
        send(vertex, params(toVendorA));
        CapturingServer.Captured sdk = server.take();
        assertThat(onVertex.path()).isEqualTo(sdk.path());
        assertThat(onVertex.body()).isEqualTo(withGatewayVersion(sdk.body(), caller));
        assertThat(onVertex.headers()).doesNotContainKey("anthropic-version");
    }

    @Test
    void tokenCountingGoesToTheOneCountTokensEndpointWithTheModelInTheBody() {
        String json = """
                {"model":"%s","system":"Be terse.","messages":[{"role":"user","content":"Hello"}],
                 "tools":[{"name":"f","input_schema":{"type":"object"}}]}""".formatted(MODEL);
        MessageCountTokensParams params = MessageCountTokensParams.builder()
                .body(read(json, MessageCountTokensParams.Body.class)).build();
        vertex.messages().countTokens(params);
        CapturingServer.Captured sdk = server.take();

        ObjectNode counted = (ObjectNode) Fixtures.parse(json);
        counted.retain(AnthropicTokenCount.COUNTED_FIELDS);
        OperationRequest request = VertexAnthropicTokenCount.operation(AT, counted, "token-counting-2024-11-01").encode(MODEL);
        assertThat(request.path()).isEqualTo(sdk.path())
                .isEqualTo("/v1/projects/my-project/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict");
        assertThat(sdk.body().get("anthropic_version").asText()).isNotBlank();
        assertThat(Fixtures.parse(request.body().toString()))
                .isEqualTo(((ObjectNode) sdk.body()).deepCopy().put("anthropic_version", VertexAnthropic.VERSION));
        assertThat(request.headers()).containsEntry("anthropic-beta", "token-counting-2024-11-01");
    }

    @ParameterizedTest
    @ValueSource(strings = {"us-east5", "europe-west1", "global", "us", "eu"})
    void theDefaultHostIsTheOneTheOfficialClientUses(String location) {
        GoogleCredentials fixed = GoogleCredentials.create(new AccessToken(TOKEN, Date.from(Instant.now().plusSeconds(3600))));
        VertexBackend backend = VertexBackend.builder().googleCredentials(fixed).region(location).project("my-project").build();
        assertThat(new VertexLocation("my-project", location).defaultBaseUrl()).isEqualTo(backend.baseUrl());
    }

    /** The Vertex backend with its host replaced by the capturing server's (the client refuses a base URL beside a backend). */
    private record PointedAt(Backend vertex, String baseUrl) implements Backend {
        @Override
        public HttpRequest prepareRequest(HttpRequest request) {
            return vertex.prepareRequest(request);
        }

        @Override
        public HttpRequest authorizeRequest(HttpRequest request) {
            return vertex.authorizeRequest(request);
        }

        @Override
        public void close() {
            vertex.close();
        }
    }

    private static MessageCreateParams params(String json) {
        return MessageCreateParams.builder().body(read(json, MessageCreateParams.Body.class)).build();
    }

    private static <T> T read(String json, Class<T> type) {
        try {
            return ObjectMappers.jsonMapper().readValue(json, type);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Streams when the JSON asked to, as a caller's SDK does with {@code createStreaming} (which adds {@code stream}). */
    private static void send(AnthropicClient client, MessageCreateParams params) {
        if (!params._additionalBodyProperties().containsKey("stream")) {
            client.messages().create(params);
            return;
        }
        MessageCreateParams streamed = params.toBuilder().removeAdditionalBodyProperty("stream").build();
        try (StreamResponse<RawMessageStreamEvent> events = client.messages().createStreaming(streamed)) {
            Iterator<RawMessageStreamEvent> it = events.stream().iterator();
            while (it.hasNext()) it.next();
        }
    }
}
