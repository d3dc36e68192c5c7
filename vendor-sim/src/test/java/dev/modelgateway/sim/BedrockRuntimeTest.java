package dev.modelgateway.sim;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.eventstream.Message;
import software.amazon.eventstream.MessageDecoder;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The Bedrock Runtime double: SigV4 checked, vendor A's answers on Invoke, event-stream frames, exception frames. */
class BedrockRuntimeTest extends SimTestBase {
    private static final String MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    private static final String PATH = "/model/" + MODEL.replace(":", "%3A");
    private static final String BODY = "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":100,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi there\"}]}";

    @Test
    void aSignedInvokeIsAnsweredWithVendorAsMessage() {
        HttpResponse<byte[]> r = signed(PATH + "/invoke", BODY, BedrockSignatures.SECRET_ACCESS_KEY);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode message = json(new String(r.body(), StandardCharsets.UTF_8));
        assertThat(message.path("type").asText()).isEqualTo("message");
        assertThat(message.path("model").asText()).isEqualTo(MODEL);
        assertThat(message.path("content").get(0).path("text").asText()).isEqualTo("Hello from " + MODEL + ". You said: Hi there");
        assertThat(r.headers().firstValue("x-amzn-bedrock-input-token-count")).isPresent();
    }

    @Test
    void aCachedPromptReportsItsCacheReadOnTheSecondCall() {
        String cached = "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":50,\"system\":[{\"type\":\"text\",\"text\":\""
                + "You are a careful assistant. ".repeat(20) + "\",\"cache_control\":{\"type\":\"ephemeral\"}}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"cache me\"}]}";
        JsonNode first = json(new String(signed(PATH + "/invoke", cached, BedrockSignatures.SECRET_ACCESS_KEY).body(), StandardCharsets.UTF_8));
        JsonNode second = json(new String(signed(PATH + "/invoke", cached, BedrockSignatures.SECRET_ACCESS_KEY).body(), StandardCharsets.UTF_8));
        assertThat(first.path("usage").path("cache_creation_input_tokens").asInt()).isPositive();
        assertThat(second.path("usage").path("cache_read_input_tokens").asInt()).isEqualTo(first.path("usage").path("cache_creation_input_tokens").asInt());
    }

    @Test
    void aWrongSecretIsAwsInvalidSignature() {
        HttpResponse<byte[]> r = signed(PATH + "/invoke", BODY, "not-the-secret");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.headers().firstValue("x-amzn-ErrorType").orElseThrow()).startsWith("InvalidSignatureException:");
        assertThat(json(new String(r.body(), StandardCharsets.UTF_8)).path("message").asText()).startsWith("The request signature we calculated");
    }

    @Test
    void aBodyChangedAfterSigningIsRefused() {
        HttpResponse<byte[]> r = send(PATH + "/invoke", BODY.replace("Hi there", "Hi thEre"), sign(PATH + "/invoke", BODY, BedrockSignatures.SECRET_ACCESS_KEY));
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.headers().firstValue("x-amzn-ErrorType").orElseThrow()).startsWith("InvalidSignatureException");
    }

    @Test
    void theApiKeyIsAcceptedAndNoAuthorizationIsRefused() {
        assertThat(send(PATH + "/invoke", BODY, List.of("authorization", "Bearer " + BedrockSignatures.API_KEY)).statusCode()).isEqualTo(200);
        HttpResponse<byte[]> none = send(PATH + "/invoke", BODY, List.of());
        assertThat(none.statusCode()).isEqualTo(403);
        assertThat(none.headers().firstValue("x-amzn-ErrorType").orElseThrow()).startsWith("MissingAuthenticationTokenException");
    }

    @Test
    void aStreamIsChunkFramesOfVendorAsEvents() {
        HttpResponse<byte[]> r = signed(PATH + "/invoke-with-response-stream", BODY, BedrockSignatures.SECRET_ACCESS_KEY);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type").orElseThrow()).isEqualTo("application/vnd.amazon.eventstream");
        List<Message> frames = frames(r.body());
        assertThat(frames).allSatisfy(f -> {
            assertThat(f.getHeaders().get(":message-type").getString()).isEqualTo("event");
            assertThat(f.getHeaders().get(":event-type").getString()).isEqualTo("chunk");
        });
        List<String> types = frames.stream().map(f -> chunkEvent(f).path("type").asText()).toList();
        assertThat(types.getFirst()).isEqualTo("message_start");
        assertThat(types).contains("content_block_delta", "message_delta");
        assertThat(types.getLast()).isEqualTo("message_stop");
        assertThat(chunkEvent(frames.getLast()).path("amazon-bedrock-invocationMetrics").path("inputTokenCount").asLong()).isPositive();
    }

    @Test
    void anExceptionFrameCutsTheStreamAfterNChunks() {
        String body = BODY.replace("Hi there", "Hi [[sim:error_after=2;exception=throttlingException]]");
        List<Message> frames = frames(signed(PATH + "/invoke-with-response-stream", body, BedrockSignatures.SECRET_ACCESS_KEY).body());
        assertThat(frames).hasSize(3);
        Message last = frames.getLast();
        assertThat(last.getHeaders().get(":message-type").getString()).isEqualTo("exception");
        assertThat(last.getHeaders().get(":exception-type").getString()).isEqualTo("throttlingException");
        assertThat(json(new String(last.getPayload(), StandardCharsets.UTF_8)).path("message").asText()).startsWith("Too many tokens");
    }

    @Test
    void aStatusFaultOnTheStreamEndpointIsAJsonErrorWithItsType() {
        String body = BODY.replace("Hi there", "[[sim:status=429;empty_body]]");
        HttpResponse<byte[]> r = signed(PATH + "/invoke-with-response-stream", body, BedrockSignatures.SECRET_ACCESS_KEY);
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("content-type").orElseThrow()).startsWith("application/json");
        assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("{}");
        assertThat(r.headers().firstValue("x-amzn-ErrorType").orElseThrow()).startsWith("ThrottlingException:");
        assertThat(r.headers().firstValue("x-amzn-errormessage").orElseThrow()).startsWith("Too many requests");
    }

    @Test
    void bedrocksOwnBodyChecksAndTheOnDemandRefusal() {
        HttpResponse<byte[]> withModel = signed(PATH + "/invoke", BODY.replace("{", "{\"model\":\"x\","), BedrockSignatures.SECRET_ACCESS_KEY);
        assertThat(withModel.statusCode()).isEqualTo(400);
        assertThat(new String(withModel.body(), StandardCharsets.UTF_8)).contains("extraneous key [model]");
        sim.bedrockProfileOnly("anthropic.claude-opus-9-v1:0");
        HttpResponse<byte[]> plain = signed("/model/anthropic.claude-opus-9-v1%3A0/invoke", BODY, BedrockSignatures.SECRET_ACCESS_KEY);
        assertThat(plain.statusCode()).isEqualTo(400);
        assertThat(new String(plain.body(), StandardCharsets.UTF_8)).contains("with on-demand throughput isn’t supported");
    }

    @Test
    void countTokensAndEmbeddings() {
        String count = "{\"input\":{\"invokeModel\":{\"body\":\"" + Base64.getEncoder().encodeToString(BODY.getBytes(StandardCharsets.UTF_8)) + "\"}}}";
        HttpResponse<byte[]> counted = signed("/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/count-tokens", count, BedrockSignatures.SECRET_ACCESS_KEY);
        assertThat(json(new String(counted.body(), StandardCharsets.UTF_8)).path("inputTokens").asInt()).isPositive();
        assertThat(signed(PATH + "/count-tokens", count, BedrockSignatures.SECRET_ACCESS_KEY).statusCode()).isEqualTo(400);
        HttpResponse<byte[]> titan = signed("/model/amazon.titan-embed-text-v2%3A0/invoke", "{\"inputText\":\"hello\",\"dimensions\":256}",
                BedrockSignatures.SECRET_ACCESS_KEY);
        JsonNode t = json(new String(titan.body(), StandardCharsets.UTF_8));
        assertThat(t.path("embedding")).hasSize(256);
        assertThat(t.path("inputTextTokenCount").asInt()).isEqualTo(2);
        HttpResponse<byte[]> cohere = signed("/model/cohere.embed-english-v3/invoke", "{\"texts\":[\"a\",\"b\"],\"input_type\":\"search_document\"}",
                BedrockSignatures.SECRET_ACCESS_KEY);
        assertThat(json(new String(cohere.body(), StandardCharsets.UTF_8)).path("embeddings")).hasSize(2);
    }

    private static JsonNode chunkEvent(Message frame) {
        String bytes = json(new String(frame.getPayload(), StandardCharsets.UTF_8)).path("bytes").asText();
        return json(new String(Base64.getDecoder().decode(bytes), StandardCharsets.UTF_8));
    }

    private static List<Message> frames(byte[] stream) {
        List<Message> out = new ArrayList<>();
        new MessageDecoder(out::add).feed(stream);
        return out;
    }

    private static HttpResponse<byte[]> signed(String path, String body, String secret) {
        return send(path, body, sign(path, body, secret));
    }

    /** The headers AWS's signer adds for this request, as a client would send them. */
    private static List<String> sign(String path, String body, String secret) {
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.POST).protocol("http").host("127.0.0.1").port(sim.port())
                .encodedPath(path).putHeader("content-type", "application/json").build();
        SdkHttpRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(AwsCredentialsIdentity.create(BedrockSignatures.ACCESS_KEY_ID, secret)).request(request)
                .payload(ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "bedrock")
                .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")).request();
        List<String> headers = new ArrayList<>();
        signed.forEachHeader((name, values) -> {
            if (!name.equalsIgnoreCase("host") && !name.equalsIgnoreCase("content-type")) values.forEach(v -> {
                headers.add(name);
                headers.add(v);
            });
        });
        return headers;
    }

    private static HttpResponse<byte[]> send(String path, String body, List<String> headers) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(sim.baseUrl() + path)).timeout(Duration.ofSeconds(20))
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
            if (!headers.isEmpty()) b.headers(headers.toArray(String[]::new));
            return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
