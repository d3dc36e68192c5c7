package dev.modelgateway.wire.converse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.CacheMarker;
import dev.modelgateway.canonical.CanonicalRequest;
import dev.modelgateway.canonical.CanonicalResponse;
import dev.modelgateway.canonical.ContentBlock;
import dev.modelgateway.canonical.Message;
import dev.modelgateway.canonical.ReasoningConfig;
import dev.modelgateway.canonical.Role;
import dev.modelgateway.canonical.SignatureOrigin;
import dev.modelgateway.canonical.StopReason;
import dev.modelgateway.canonical.StreamAccumulator;
import dev.modelgateway.canonical.ToolDefinition;
import dev.modelgateway.canonical.UnmappedFields;
import dev.modelgateway.config.Capabilities;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.wire.EncodedRequest;
import dev.modelgateway.wire.StreamDecoder;
import io.vertx.core.Vertx;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamRequest;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseStreamResponseHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.eventstream.MessageDecoder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The codec against the simulator's Bedrock double: a thinking tool loop whose signed reasoning the double verifies
 * on replay, a ConverseStream read frame by frame, and cache points kept or dropped by the deployment's declared
 * capability for a model id without caching.
 */
@E2e
class ConverseAgainstSimulatorTest {
    private static final Capabilities CLAUDE = new Capabilities(true, Set.of("enabled", "adaptive"), true, null, null, null);
    private static Vertx vertx;
    private static VendorSimulator sim;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        sim.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void aThinkingToolLoopIsNotWedged() throws Exception {
        ConverseCodec codec = new ConverseCodec(CLAUDE);
        String model = "us.anthropic.claude-sonnet-4-5-v1:0";
        Message question = new Message(Role.USER, List.of(new ContentBlock.Text("Weather in Oslo?")));
        CanonicalRequest first = request(List.of(question));
        CanonicalResponse call = codec.decodeResponse(Json.MAPPER.readTree(send(codec.encodeRequest(first, model, false)).body()));
        assertThat(call.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(call.content().getFirst()).isInstanceOfSatisfying(ContentBlock.Thinking.class,
                t -> assertThat(t.origin()).isEqualTo(SignatureOrigin.ANTHROPIC));
        ContentBlock.ToolUse use = (ContentBlock.ToolUse) call.content().get(1);

        CanonicalRequest next = request(List.of(question, new Message(Role.ASSISTANT, call.content()),
                new Message(Role.USER, List.of(new ContentBlock.ToolResult(use.id(), List.of(new ContentBlock.Text("rain")), false, null)))));
        HttpResponse<String> answered = send(codec.encodeRequest(next, model, false));
        assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
        CanonicalResponse end = codec.decodeResponse(Json.MAPPER.readTree(answered.body()));
        assertThat(end.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(((ContentBlock.Text) end.content().get(1)).text()).startsWith("Tool result received: rain");
    }

    @Test
    void aStreamReadFrameByFrame() throws Exception {
        ConverseCodec codec = new ConverseCodec(CLAUDE);
        EncodedRequest enc = codec.encodeRequest(request(List.of(new Message(Role.USER, List.of(new ContentBlock.Text("Oslo?"))))),
                "anthropic.claude-haiku-4-5-v1:0", true);
        HttpResponse<byte[]> r = HTTP.send(post(enc), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).isEqualTo(200);
        StreamDecoder decoder = codec.newStreamDecoder();
        StreamAccumulator acc = new StreamAccumulator();
        // as the transport will: one SSE event per event frame, named by its :event-type
        List<software.amazon.eventstream.Message> frames = new ArrayList<>();
        new MessageDecoder(frames::add).feed(r.body());
        for (var f : frames) {
            decoder.decode(new SseEvent(f.getHeaders().get(":event-type").getString(),
                    new String(f.getPayload(), StandardCharsets.UTF_8)), acc::accept);
        }
        decoder.end(acc::accept);
        CanonicalResponse streamed = acc.response();
        assertThat(streamed.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(streamed.content()).hasSize(2);
        assertThat(((ContentBlock.Thinking) streamed.content().get(0)).signature()).isNotEmpty();
        assertThat(Json.MAPPER.readTree(((ContentBlock.ToolUse) streamed.content().get(1)).arguments()).path("city").asText()).isEqualTo("sim");
        assertThat(streamed.usage().outputTokens()).isPositive();
    }

    /** The AWS SDK's own ConverseStream reader takes the double's frames: the frames the codec is tested on have Bedrock's shape. */
    @Test
    void theSdkReadsTheDoublesStreamAsTheCodecDoes() throws Exception {
        StringBuilder text = new StringBuilder();
        List<String> stops = new ArrayList<>();
        List<Integer> outputTokens = new ArrayList<>();
        try (BedrockRuntimeAsyncClient client = BedrockRuntimeAsyncClient.builder().region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDSIMBEDROCK", "sim-bedrock-secret")))
                .endpointOverride(URI.create(sim.baseUrl())).build()) {
            ConverseStreamResponseHandler handler = ConverseStreamResponseHandler.builder()
                    .subscriber(ConverseStreamResponseHandler.Visitor.builder()
                            .onContentBlockDelta(d -> { if (d.delta().text() != null) text.append(d.delta().text()); })
                            .onMessageStop(m -> stops.add(m.stopReasonAsString()))
                            .onMetadata(m -> outputTokens.add(m.usage().outputTokens()))
                            .build())
                    .build();
            client.converseStream(ConverseStreamRequest.builder().modelId("amazon.nova-pro-v1:0")
                    .messages(m -> m.role(ConversationRole.USER).content(c -> c.text("a b c"))).build(), handler)
                    .get(20, TimeUnit.SECONDS);
        }
        assertThat(text.toString()).isEqualTo("Hello from amazon.nova-pro-v1:0. You said: a b c");
        assertThat(stops).containsExactly("end_turn");
        assertThat(outputTokens).singleElement().asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.INTEGER).isPositive();
    }

    /** An application-profile ARN without caching: declared so, its cache markers are dropped and it answers. */
    @Test
    void cachePointsFollowTheDeclaredCapability() {
        String arn = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/nocache2";
        sim.bedrockWithoutCaching(arn);
        CanonicalRequest cached = CanonicalRequest.builder(UnmappedFields.MESSAGES).model("public/m")
                .system(List.of(new ContentBlock.Text("Instructions", CacheMarker.DEFAULT)))
                .messages(List.of(new Message(Role.USER, List.of(new ContentBlock.Text("hi"))))).build();
        ConverseCodec declared = new ConverseCodec(CLAUDE);
        HttpResponse<String> refused = send(declared.encodeRequest(cached, arn, false));
        GatewayException e = declared.decodeError(refused.statusCode(), refused.body());
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.getMessage()).contains("prompt caching");

        ConverseCodec undeclared = new ConverseCodec(new Capabilities(false, Set.of(), true, null, null, null));
        HttpResponse<String> ok = send(undeclared.encodeRequest(cached, arn, false));
        assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    }

    private static CanonicalRequest request(List<Message> messages) throws Exception {
        JsonNode schema = Json.MAPPER.readTree("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}}}");
        return CanonicalRequest.builder(UnmappedFields.MESSAGES).model("public/m").messages(messages).maxTokens(4000)
                .tools(List.of(new ToolDefinition("weather", "Weather now", schema, null, null)))
                .reasoning(new ReasoningConfig(ReasoningConfig.Mode.ENABLED, 2048, null)).build();
    }

    private static HttpResponse<String> send(EncodedRequest enc) {
        try {
            return HTTP.send(post(enc), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static HttpRequest post(EncodedRequest enc) {
        return HttpRequest.newBuilder(URI.create(sim.baseUrl() + enc.path())).header("content-type", "application/json")
                // the simulator's Bedrock API key: the double checks every call's credential
                .header("authorization", "Bearer sim-bedrock-api-key")
                .POST(HttpRequest.BodyPublishers.ofString(enc.body().toString())).build();
    }
}
