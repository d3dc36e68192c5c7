package dev.modelgateway.wire.vertex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.genai.Client;
import com.google.genai.ResponseStream;
import com.google.genai.types.Content;
import com.google.genai.types.CountTokensConfig;
import com.google.genai.types.EmbedContentConfig;
import com.google.genai.types.GenerateContentConfig;
import com.google.genai.types.GenerateContentResponse;
import com.google.genai.types.HttpOptions;
import com.google.genai.types.HttpRetryOptions;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.Fixtures;
import dev.modelgateway.wire.OperationRequest;
import dev.modelgateway.wire.anthropic.MessagesInbound;
import dev.modelgateway.wire.gemini.GeminiCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Google's Gen AI SDK in Vertex mode as the oracle of Gemini on Vertex: the request the Gemini codec encodes is given
 * to the SDK (its contents and config), which sends it once to the Developer API and once to Vertex, both at a
 * capturing server. The SDK must send the codec's body unchanged in both modes (so the Gemini wire format holds on
 * Vertex), on the path {@link VertexGemini#path} gives, with a Bearer token and no API key.
 */
class VertexGeminiOracleTest {
    private static final String TOKEN = "ya29.fixed-test-token";
    private static final String MODEL = "gemini-2.5-flash";
    private static final VertexLocation AT = new VertexLocation("my-project", "us-central1");
    private static final GeminiCodec CODEC = new GeminiCodec();
    private static CapturingServer server;
    private static Client developer;
    private static Client vertex;

    @BeforeAll
    static void clients() {
        server = new CapturingServer();
        HttpRetryOptions once = HttpRetryOptions.builder().attempts(1).build();
        developer = Client.builder().apiKey("dev-key")
                .httpOptions(HttpOptions.builder().baseUrl(server.baseUrl()).apiVersion("v1beta").retryOptions(once).build()).build();
        GoogleCredentials fixed = GoogleCredentials.create(new AccessToken(TOKEN, Date.from(Instant.now().plusSeconds(3600))));
        // Vertex's GA version, as the gateway calls it (the SDK's default is v1beta1, which takes the same body)
        vertex = Client.builder().vertexAI(true).project(AT.project()).location(AT.location()).credentials(fixed)
                .httpOptions(HttpOptions.builder().baseUrl(server.baseUrl()).apiVersion("v1").retryOptions(once).build()).build();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Stream<Arguments> calls() {
        return Stream.of(
                Arguments.of("text", false, """
                        {"model":"m","max_tokens":256,"system":"Be terse.","temperature":0.2,
                         "messages":[{"role":"user","content":"Hello"}]}"""),
                Arguments.of("stream", true, """
                        {"model":"m","max_tokens":256,"messages":[{"role":"user","content":"Hello"}]}"""),
                Arguments.of("tools", false, """
                        {"model":"m","max_tokens":256,"messages":[{"role":"user","content":"Weather in Paris?"}],
                         "tools":[{"name":"get_weather","description":"Weather now","input_schema":{"type":"object",
                           "properties":{"city":{"type":"string"}},"required":["city"]}}],"tool_choice":{"type":"any"}}"""),
                Arguments.of("thinking multi-turn with signatures", true, """
                        {"model":"m","max_tokens":4096,"thinking":{"type":"enabled","budget_tokens":2048},"messages":[
                          {"role":"user","content":"Weather in Paris?"},
                          {"role":"assistant","content":[
                            {"type":"thinking","thinking":"I should call the tool.","signature":"gemini:VGhvdWdodFNpZw=="},
                            {"type":"thinking","thinking":"","signature":"gemini-call:Q2FsbFNpZw=="},
                            {"type":"tool_use","id":"call_1","name":"get_weather","input":{"city":"Paris"}}]},
                          {"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"18C"}]}],
                         "tools":[{"name":"get_weather","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]}"""),
                Arguments.of("images", false, """
                        {"model":"m","max_tokens":256,"messages":[{"role":"user","content":[
                          {"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},
                          {"type":"text","text":"What is this?"}]}]}"""),
                Arguments.of("cache control (no markers on Gemini)", false, """
                        {"model":"m","max_tokens":256,
                         "system":[{"type":"text","text":"Long instructions.","cache_control":{"type":"ephemeral"}}],
                         "messages":[{"role":"user","content":[{"type":"text","text":"Hi","cache_control":{"type":"ephemeral"}}]}]}"""),
                Arguments.of("structured output", false, """
                        {"model":"m","max_tokens":256,"messages":[{"role":"user","content":"Name a city."}],
                         "output_config":{"format":{"type":"json_schema","schema":{"type":"object",
                           "properties":{"city":{"type":"string"}},"required":["city"]}}}}"""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("calls")
    void theCodecsBodyGoesToVertexUnchangedOnTheVertexPath(String name, boolean stream, String messages) {
        CanonicalRequest request = new MessagesInbound().decodeRequest(Fixtures.parse(messages));
        EncodedRequest encoded = CODEC.encodeRequest(request, MODEL, stream);
        EncodedRequest onVertex = new VertexGeminiCodec(AT).encodeRequest(request, MODEL, stream);

        send(developer, encoded.body(), stream);
        CapturingServer.Captured dev = server.take();
        send(vertex, encoded.body(), stream);
        CapturingServer.Captured sdk = server.take();

        assertThat(dev.path()).isEqualTo(encoded.path());
        assertThat(dev.body()).as("the SDK carries the codec's request as it is").isEqualTo(encoded.body());
        assertThat(onVertex.path()).isEqualTo(sdk.path()).isEqualTo(VertexGemini.path(AT, encoded.path()));
        assertThat(onVertex.body()).isEqualTo(sdk.body());
        assertThat(sdk.header("authorization")).isEqualTo("Bearer " + TOKEN);
        assertThat(sdk.header("x-goog-api-key")).isNull();
    }

    @Test
    void pathsKeepTheMethodAndItsQuery() {
        assertThat(VertexGemini.path(AT, "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"))
                .isEqualTo("/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse");
        assertThat(VertexGemini.path(new VertexLocation("my-project", "global"), "/v1beta/models/gemini-2.5-pro:generateContent"))
                .isEqualTo("/v1/projects/my-project/locations/global/publishers/google/models/gemini-2.5-pro:generateContent");
    }

    @Test
    void tokenCountingSendsWhatTheSdkSendsToVertexCountTokens() {
        CanonicalRequest request = new MessagesInbound().decodeRequest(Fixtures.parse("""
                {"model":"m","max_tokens":64,"system":"Be terse.","messages":[{"role":"user","content":"Hello"}],
                 "tools":[{"name":"f","input_schema":{"type":"object","properties":{"x":{"type":"string"}}}}]}"""));
        OperationRequest ours = VertexGeminiTokenCount.operation(AT, () -> request, CODEC).encode(MODEL);
        ObjectNode generate = CODEC.encodeRequest(request, MODEL, false).body();

        ObjectNode config = Fixtures.JSON.createObjectNode();
        config.set("systemInstruction", generate.get("systemInstruction"));
        config.set("tools", generate.get("tools"));
        config.set("generationConfig", generate.get("generationConfig"));
        vertex.models.countTokens(MODEL, contents(generate), CountTokensConfig.fromJson(config.toString()));
        CapturingServer.Captured sdk = server.take();

        assertThat(ours.path()).isEqualTo(sdk.path())
                .isEqualTo("/v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:countTokens");
        assertThat(Fixtures.parse(ours.body().toString())).isEqualTo(sdk.body());
    }

    @Test
    void embeddingsSendWhatTheSdkSendsToVertexPredict() {
        OperationRequest ours = VertexEmbeddings.operation(AT, "platform/embed", List.of("first", "second"), 256,
                "RETRIEVAL_QUERY", false).encode("text-embedding-005").getFirst();
        vertex.models.embedContent("text-embedding-005", List.of("first", "second"),
                EmbedContentConfig.builder().outputDimensionality(256).taskType("RETRIEVAL_QUERY").build());
        CapturingServer.Captured sdk = server.take();

        assertThat(ours.path()).isEqualTo(sdk.path())
                .isEqualTo("/v1/projects/my-project/locations/us-central1/publishers/google/models/text-embedding-005:predict");
        assertThat(Fixtures.parse(ours.body().toString())).isEqualTo(sdk.body());
    }

    /** Gives the SDK a generateContent body as its own arguments: contents, and a config of everything else. */
    private static void send(Client client, ObjectNode body, boolean stream) {
        ObjectNode config = body.has("generationConfig") ? ((ObjectNode) body.get("generationConfig")).deepCopy()
                : Fixtures.JSON.createObjectNode();
        body.properties().forEach(e -> {
            if (!e.getKey().equals("contents") && !e.getKey().equals("generationConfig")) config.set(e.getKey(), e.getValue());
        });
        GenerateContentConfig parsed = GenerateContentConfig.fromJson(config.toString());
        if (!stream) {
            client.models.generateContent(MODEL, contents(body), parsed);
            return;
        }
        try (ResponseStream<GenerateContentResponse> chunks = client.models.generateContentStream(MODEL, contents(body), parsed)) {
            chunks.forEach(chunk -> { });
        }
    }

    private static List<Content> contents(JsonNode body) {
        List<Content> out = new ArrayList<>();
        for (JsonNode c : body.path("contents")) out.add(Content.fromJson(c.toString()));
        return out;
    }
}
