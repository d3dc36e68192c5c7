package dev.modelgateway.wire.bedrock;

import com.anthropic.backends.Backend;
import com.anthropic.bedrock.backends.BedrockBackend;
import com.anthropic.client.AnthropicClient;
import com.anthropic.client.okhttp.AnthropicOkHttpClient;
import com.anthropic.core.http.HttpRequest;
import com.anthropic.core.http.HttpResponse;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.RawMessageStreamEvent;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.sse.SseEvent;
import dev.modelgateway.sse.SseParser;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.BedrockRuntimeException;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelWithResponseStreamResponseHandler;
import software.amazon.awssdk.services.bedrockruntime.model.ThrottlingException;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The simulator's Bedrock double read by the official clients: the AWS SDK's signatures (over ARN paths as it encodes
 * them) are accepted and a wrong secret refused as AWS refuses it, its streams and exception frames decode in the AWS
 * SDK, in Anthropic's Bedrock client and through {@link EventStreamSse}.
 */
class BedrockDoubleSdkTest {
    private static final String KEY = "AKIDGATEWAYTEST";
    private static final String SECRET = "gateway-test-secret";
    private static final String BODY = "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":64,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi %s\"}]}";
    private static Vertx vertx;
    private static VendorSimulator sim;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        sim.bedrockCredentials(KEY, SECRET);
    }

    @AfterAll
    static void stop() throws Exception {
        sim.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"anthropic.claude-sonnet-4-5-20250929-v1:0", "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5f6",
            "arn:aws:bedrock:us-east-1:123456789012:provisioned-model/abcdef123456"})
    void theSdksSignaturesAreAcceptedWhateverTheId(String id) {
        try (BedrockRuntimeClient sdk = client(SECRET)) {
            String answer = sdk.invokeModel(b -> b.modelId(id).contentType("application/json")
                    .body(SdkBytes.fromUtf8String(BODY.formatted("there")))).body().asUtf8String();
            assertThat(answer).contains("\"text\":\"Hello from " + id + ". You said: Hi there\"");
        }
        assertThat(sim.received().getLast().path()).isEqualTo("/model/" + BedrockModelId.parse(id).pathSegment() + "/invoke");
    }

    @Test
    void aWrongSecretIsRefusedAsAwsRefusesIt() {
        try (BedrockRuntimeClient sdk = client("wrong")) {
            assertThatThrownBy(() -> sdk.invokeModel(b -> b.modelId("us.anthropic.claude-sonnet-4-5-20250929-v1:0")
                    .contentType("application/json").body(SdkBytes.fromUtf8String(BODY.formatted("x")))))
                    .isInstanceOfSatisfying(BedrockRuntimeException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(403);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("InvalidSignatureException");
                    });
        }
    }

    @Test
    void theStreamDecodesInTheAwsSdkAndItsExceptionFrameIsItsException() throws Exception {
        try (BedrockRuntimeAsyncClient sdk = BedrockRuntimeAsyncClient.builder().endpointOverride(URI.create(sim.baseUrl()))
                .region(Region.US_EAST_1).credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(KEY, SECRET))).build()) {
            List<String> chunks = new CopyOnWriteArrayList<>();
            sdk.invokeModelWithResponseStream(b -> b.modelId("us.anthropic.claude-sonnet-4-5-20250929-v1:0")
                            .body(SdkBytes.fromUtf8String(BODY.formatted("stream"))),
                    InvokeModelWithResponseStreamResponseHandler.builder().subscriber(InvokeModelWithResponseStreamResponseHandler.Visitor
                            .builder().onChunk(c -> chunks.add(c.bytes().asUtf8String())).build()).build()).get(20, TimeUnit.SECONDS);
            assertThat(chunks.getFirst()).startsWith("{\"type\":\"message_start\"");
            assertThat(chunks.getLast()).startsWith("{\"type\":\"message_stop\"");

            assertThatThrownBy(() -> sdk.invokeModelWithResponseStream(b -> b.modelId("us.anthropic.claude-sonnet-4-5-20250929-v1:0")
                            .body(SdkBytes.fromUtf8String(BODY.formatted("[[sim:error_after=2;exception=throttlingException]]"))),
                    InvokeModelWithResponseStreamResponseHandler.builder().subscriber(InvokeModelWithResponseStreamResponseHandler.Visitor
                            .builder().build()).build()).join())
                    .isInstanceOf(CompletionException.class).hasCauseInstanceOf(ThrottlingException.class);
        }
    }

    @Test
    void theStreamBecomesVendorAsSseAtTheEdgeAndItsExceptionTheMappedError() throws Exception {
        byte[] stream = rawStream(BODY.formatted("edge"));
        EventStreamSse sse = EventStreamSse.invoke(1 << 20, "us-east-1");
        List<SseEvent> events = new ArrayList<>();
        SseParser parser = new SseParser(events::add);
        for (int i = 0; i < stream.length; i += 7) parser.feed(sse.convert(Buffer.buffer(stream).slice(i, Math.min(stream.length, i + 7))));
        sse.end();
        assertThat(events.getFirst().event()).isEqualTo("message_start");
        assertThat(events.getLast().event()).isEqualTo("message_stop");
        assertThat(events).extracting(SseEvent::event).contains("content_block_delta");

        byte[] cut = rawStream(BODY.formatted("[[sim:error_after=1;exception=serviceUnavailableException]]"));
        EventStreamSse failing = EventStreamSse.invoke(1 << 20, "us-east-1");
        // the chunk before the exception in the same read is returned, the failure follows it
        assertThat(failing.convert(Buffer.buffer(cut)).toString()).startsWith("event: message_start");
        assertThat(failing.pending()).isInstanceOfSatisfying(GatewayException.class, e -> assertThat(e.status()).isEqualTo(503));
    }

    @Test
    void anthropicsBedrockClientStreamsFromTheDouble() {
        BedrockBackend aws = BedrockBackend.builder().awsCredentials(AwsBasicCredentials.create(KEY, SECRET)).region(Region.US_EAST_1).build();
        AnthropicClient client = AnthropicOkHttpClient.builder().backend(new Local(aws, sim.baseUrl())).maxRetries(0).build();
        try (var stream = client.messages().createStreaming(MessageCreateParams.builder().model("us.anthropic.claude-sonnet-4-5-20250929-v1:0")
                .maxTokens(64).addUserMessage("Hi sdk").build())) {
            List<RawMessageStreamEvent> events = stream.stream().toList();
            assertThat(events.getFirst().isMessageStart()).isTrue();
            assertThat(events.getLast().isMessageStop()).isTrue();
        } finally {
            client.close();
        }
    }

    /** The double's stream body as bytes, requested with the Bedrock API key. */
    private static byte[] rawStream(String body) throws Exception {
        java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(URI.create(sim.baseUrl()
                        + "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream"))
                .header("authorization", "Bearer sim-bedrock-api-key").header("content-type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(request, java.net.http.HttpResponse.BodyHandlers.ofByteArray()).body();
        }
    }

    private static BedrockRuntimeClient client(String secret) {
        return BedrockRuntimeClient.builder().endpointOverride(URI.create(sim.baseUrl())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(KEY, secret)))
                .httpClient(UrlConnectionHttpClient.create()).overrideConfiguration(c -> c.retryStrategy(r -> r.maxAttempts(1))).build();
    }

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
}
