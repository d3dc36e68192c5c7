package dev.modelgateway.credentials.aws;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeAsyncClient;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.auth.scheme.BedrockRuntimeAuthSchemeProvider;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelWithResponseStreamResponseHandler;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The AWS SDK for Java's {@code BedrockRuntimeClient} is the oracle of SigV4 on Bedrock: pointed at a capturing server
 * with static credentials and a fixed signing clock, it sends InvokeModel and InvokeModelWithResponseStream for a plain
 * model id, a geo inference profile and an application inference profile's ARN; {@link AwsSigning} signing the same
 * request (the path exactly as the SDK sent it, the headers it signed, the body bytes) must give the same
 * {@code Authorization}, date, payload hash, token and host. The paths themselves are asserted too: that is how the SDK encodes a
 * model id ({@code :} and {@code /} percent-encoded in the label), which the gateway must send and sign as is.
 */
class AwsSigningOracleTest {
    private static final Instant AT = Instant.parse("2026-03-01T12:34:56Z");
    private static final AwsSessionCredentials CREDENTIALS = AwsSessionCredentials.create("ASIAORACLEEXAMPLE001",
            "oracle/secret+key0123456789abcdefghijklmn", "oracle-session-token/with+slashes==");
    private static final String BODY = "{\"anthropic_version\":\"bedrock-2023-05-31\",\"max_tokens\":64,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"héllo\"}]}";

    record Captured(String method, String rawPath, String rawQuery, Map<String, String> headers, byte[] body) {
    }

    private static final List<Captured> captured = new CopyOnWriteArrayList<>();
    private static HttpServer server;
    private static BedrockRuntimeClient sync;
    private static BedrockRuntimeAsyncClient async;

    @BeforeAll
    static void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
            URI uri = exchange.getRequestURI();
            captured.add(new Captured(exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(), headers,
                    exchange.getRequestBody().readAllBytes()));
            boolean stream = uri.getRawPath().endsWith("/invoke-with-response-stream");
            // the stream is refused (ValidationException does not retry): only its request matters here
            byte[] answer = (stream ? "{\"message\":\"captured\"}" : "{\"content\":[]}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("content-type", "application/json");
            if (stream) exchange.getResponseHeaders().set("x-amzn-ErrorType", "ValidationException");
            exchange.sendResponseHeaders(stream ? 400 : 200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        // the signing clock is a signer property of the auth scheme the SDK resolves: the default scheme, plus a fixed clock
        BedrockRuntimeAuthSchemeProvider fixedClock = params -> BedrockRuntimeAuthSchemeProvider.defaultProvider().resolveAuthScheme(params)
                .stream().map(o -> o.toBuilder().putSignerProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(AT, ZoneOffset.UTC)).build())
                .toList();
        sync = BedrockRuntimeClient.builder().region(Region.US_EAST_1).endpointOverride(endpoint)
                .credentialsProvider(StaticCredentialsProvider.create(CREDENTIALS)).authSchemeProvider(fixedClock)
                .httpClient(UrlConnectionHttpClient.create()).build();
        async = BedrockRuntimeAsyncClient.builder().region(Region.US_EAST_1).endpointOverride(endpoint)
                .credentialsProvider(StaticCredentialsProvider.create(CREDENTIALS)).authSchemeProvider(fixedClock)
                .httpClient(NettyNioAsyncHttpClient.create()).build();
    }

    @AfterAll
    static void stop() {
        sync.close();
        async.close();
        server.stop(0);
    }

    private static final String PLAIN = "anthropic.claude-sonnet-4-5-20250929-v1:0";
    private static final String GEO_PROFILE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    private static final String APPLICATION_PROFILE = "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/abc";

    @ParameterizedTest
    @ValueSource(strings = {PLAIN, GEO_PROFILE, APPLICATION_PROFILE})
    void invokeIsSignedExactlyAsTheSdkSignsIt(String modelId) {
        captured.clear();
        sync.invokeModel(r -> r.modelId(modelId).contentType("application/json").accept("application/json").body(SdkBytes.fromUtf8String(BODY)));
        Captured sent = captured.getFirst();
        assertThat(sent.rawPath()).isEqualTo("/model/" + encodedAsTheSdkDoes(modelId) + "/invoke");
        assertSameSignature(sent);
    }

    @ParameterizedTest
    @ValueSource(strings = {PLAIN, GEO_PROFILE, APPLICATION_PROFILE})
    void invokeWithResponseStreamIsSignedExactlyAsTheSdkSignsIt(String modelId) {
        captured.clear();
        assertThatThrownBy(() -> async.invokeModelWithResponseStream(r -> r.modelId(modelId).contentType("application/json")
                        .accept("application/json").body(SdkBytes.fromUtf8String(BODY)),
                InvokeModelWithResponseStreamResponseHandler.builder().subscriber(event -> { }).build()).join())
                .isInstanceOf(CompletionException.class).hasMessageContaining("captured");
        Captured sent = captured.getFirst();
        assertThat(sent.rawPath()).isEqualTo("/model/" + encodedAsTheSdkDoes(modelId) + "/invoke-with-response-stream");
        assertSameSignature(sent);
    }

    /** What the SDK sends, written out: the label's {@code :} and {@code /} percent-encoded, dots and dashes as they are. */
    private static String encodedAsTheSdkDoes(String modelId) {
        return switch (modelId) {
            case PLAIN -> "anthropic.claude-sonnet-4-5-20250929-v1%3A0";
            case GEO_PROFILE -> "us.anthropic.claude-sonnet-4-5-20250929-v1%3A0";
            case APPLICATION_PROFILE -> "arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fabc";
            default -> throw new IllegalArgumentException(modelId);
        };
    }

    private static void assertSameSignature(Captured sent) {
        assertThat(sent.body()).isEqualTo(BODY.getBytes(StandardCharsets.UTF_8));
        String authorization = sent.headers().get("authorization");
        String signedHeaders = authorization.replaceAll(".*SignedHeaders=([^,]+),.*", "$1");
        // the headers the SDK signed, less those AwsSigning adds itself
        Map<String, String> toSign = new LinkedHashMap<>();
        for (String name : signedHeaders.split(";")) {
            if (!List.of("host", "x-amz-date", "x-amz-security-token", "x-amz-content-sha256").contains(name)) toSign.put(name, sent.headers().get(name));
        }
        URI uri = URI.create("http://" + sent.headers().get("host") + sent.rawPath() + (sent.rawQuery() == null ? "" : "?" + sent.rawQuery()));
        Map<String, String> ours = new AwsSigning("us-east-1", AwsSigning.BEDROCK).sign(sent.method(), uri, toSign, sent.body(), CREDENTIALS, AT);

        assertThat(ours).containsOnlyKeys("Authorization", "X-Amz-Date", "X-Amz-Security-Token", "x-amz-content-sha256", "Host");
        assertThat(ours.get("x-amz-content-sha256")).isEqualTo(sent.headers().get("x-amz-content-sha256"));
        assertThat(ours.get("Authorization")).isEqualTo(authorization);
        assertThat(ours.get("X-Amz-Date")).isEqualTo(sent.headers().get("x-amz-date")).isEqualTo("20260301T123456Z");
        assertThat(ours.get("X-Amz-Security-Token")).isEqualTo(sent.headers().get("x-amz-security-token"));
        assertThat(ours.get("Host")).isEqualTo(sent.headers().get("host"));

        // the path is signed as sent: its decoded form, or another body, is another signature
        URI decoded = URI.create("http://" + sent.headers().get("host") + sent.rawPath().replace("%3A", ":"));
        if (!decoded.getRawPath().equals(sent.rawPath())) {
            assertThat(new AwsSigning("us-east-1", AwsSigning.BEDROCK).sign(sent.method(), decoded, toSign, sent.body(), CREDENTIALS, AT)
                    .get("Authorization")).isNotEqualTo(authorization);
        }
        byte[] other = BODY.replace("64", "65").getBytes(StandardCharsets.UTF_8);
        assertThat(new AwsSigning("us-east-1", AwsSigning.BEDROCK).sign(sent.method(), uri, toSign, other, CREDENTIALS, AT)
                .get("Authorization")).isNotEqualTo(authorization);
    }
}
