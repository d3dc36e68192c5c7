package dev.modelgateway.sim;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Claude Platform on AWS ({@code /claude-aws}) and Bedrock's OpenAI-compatible endpoint ({@code /bedrock-openai}):
 * each checks a signature scoped to its own service, its API key, and (Claude Platform) the workspace header.
 */
class AwsHostedApisTest extends SimTestBase {
    private static final String MESSAGES = "/claude-aws/v1/messages";
    private static final String MESSAGE_BODY = "{\"model\":\"claude-sonnet-4-8\",\"max_tokens\":100,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi there\"}]}";
    private static final String CHAT = "/bedrock-openai/openai/v1/chat/completions";
    private static final String CHAT_BODY = "{\"model\":\"openai.gpt-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi there\"}]}";
    private static final List<String> WORKSPACE = List.of("anthropic-workspace-id", ClaudePlatformApi.WORKSPACE);

    @Test
    void claudePlatformAnswersVendorAsMessageToASignatureForItsServiceWithTheWorkspace() {
        HttpResponse<String> r = send(MESSAGES, MESSAGE_BODY, with(sign(MESSAGES, MESSAGE_BODY, "aws-external-anthropic"), WORKSPACE));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(json(r.body()).at("/content/0/text").asText()).isEqualTo("Hello from claude-sonnet-4-8. You said: Hi there");
        assertThat(send(MESSAGES, MESSAGE_BODY, with(List.of("authorization", "Bearer " + ClaudePlatformApi.API_KEY), WORKSPACE))
                .statusCode()).isEqualTo(200);
    }

    @Test
    void claudePlatformRefusesAnotherServicesSignatureAndKeyAndWantsAWorkspaceItHas() {
        HttpResponse<String> bedrockSigned = send(MESSAGES, MESSAGE_BODY, with(sign(MESSAGES, MESSAGE_BODY, "bedrock"), WORKSPACE));
        assertThat(bedrockSigned.statusCode()).isEqualTo(403);
        assertThat(json(bedrockSigned.body()).at("/error/message").asText())
                .isEqualTo("Credential should be scoped to correct service: 'aws-external-anthropic'. ");
        assertThat(send(MESSAGES, MESSAGE_BODY, with(List.of("authorization", "Bearer " + BedrockSignatures.API_KEY), WORKSPACE))
                .statusCode()).isEqualTo(403);

        HttpResponse<String> none = send(MESSAGES, MESSAGE_BODY, sign(MESSAGES, MESSAGE_BODY, "aws-external-anthropic"));
        assertThat(none.statusCode()).isEqualTo(400);
        assertThat(json(none.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
        HttpResponse<String> other = send(MESSAGES, MESSAGE_BODY, with(sign(MESSAGES, MESSAGE_BODY, "aws-external-anthropic"),
                List.of("anthropic-workspace-id", "wrkspc_01Other")));
        assertThat(other.statusCode()).isEqualTo(403);
        assertThat(json(other.body()).at("/error/type").asText()).isEqualTo("permission_error");
        assertThat(json(other.body()).at("/error/message").asText()).isEqualTo("User is not authorized to perform:"
                + " aws-external-anthropic:CreateInference on resource: arn:aws:aws-external-anthropic:us-east-1:123456789012:workspace/wrkspc_01Other");
    }

    @Test
    void bedrocksOpenAiEndpointAnswersChatAndResponsesToBedrockSignaturesAndKeys() {
        HttpResponse<String> chat = send(CHAT, CHAT_BODY, sign(CHAT, CHAT_BODY, "bedrock"));
        assertThat(chat.statusCode()).isEqualTo(200);
        assertThat(json(chat.body()).at("/choices/0/message/content").asText()).isEqualTo("Hello from openai.gpt-5.5. You said: Hi there");

        String responses = "/bedrock-openai/openai/v1/responses";
        String input = "{\"model\":\"openai.gpt-5.5\",\"input\":\"Hi there\"}";
        HttpResponse<String> r = send(responses, input, List.of("authorization", "Bearer " + BedrockSignatures.API_KEY));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("Hello from openai.gpt-5.5. You said: Hi there");
        HttpResponse<String> background = send(responses, input.replace("{", "{\"background\":true,"),
                List.of("authorization", "Bearer " + BedrockSignatures.API_KEY));
        assertThat(background.statusCode()).isEqualTo(400);
        assertThat(json(background.body()).at("/error/param").asText()).isEqualTo("background");
    }

    @Test
    void bedrocksOpenAiEndpointRefusesAnotherServicesSignatureAndATamperedBody() {
        HttpResponse<String> claudeSigned = send(CHAT, CHAT_BODY, sign(CHAT, CHAT_BODY, "aws-external-anthropic"));
        assertThat(claudeSigned.statusCode()).isEqualTo(403);
        assertThat(json(claudeSigned.body()).at("/error/code").asText()).isEqualTo("InvalidSignatureException");
        assertThat(send(CHAT, CHAT_BODY.replace("Hi", "Ho"), sign(CHAT, CHAT_BODY, "bedrock")).statusCode()).isEqualTo(403);
        assertThat(send(CHAT, CHAT_BODY, List.of()).statusCode()).isEqualTo(403);
    }

    private static List<String> with(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** The headers AWS's signer adds for this request, signed for {@code service}, as a client would send them. */
    private static List<String> sign(String path, String body, String service) {
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.POST).protocol("http").host("127.0.0.1").port(sim.port())
                .encodedPath(path).putHeader("content-type", "application/json").build();
        SdkHttpRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(AwsCredentialsIdentity.create(BedrockSignatures.ACCESS_KEY_ID, BedrockSignatures.SECRET_ACCESS_KEY))
                .request(request).payload(ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, service)
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

    private static HttpResponse<String> send(String path, String body, List<String> headers) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(sim.baseUrl() + path)).timeout(Duration.ofSeconds(20))
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
            if (!headers.isEmpty()) b.headers(headers.toArray(String[]::new));
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
