package dev.modelgateway.wire.bedrock;

import dev.modelgateway.config.Capabilities;
import dev.modelgateway.wire.bedrock.BedrockModelId.Kind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;

import java.net.URI;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Model ids classified, and their path encoding compared with what the AWS SDK for Java v2 really sends. */
class BedrockModelIdTest {
    private static final String MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";
    private static CapturingServer server;
    private static BedrockRuntimeClient sdk;

    @BeforeAll
    static void start() throws Exception {
        server = new CapturingServer("{\"inputTokens\":3}");
        sdk = BedrockRuntimeClient.builder().endpointOverride(URI.create(server.url())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret")))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterAll
    static void stop() {
        sdk.close();
        server.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            MODEL,
            "us." + MODEL,
            "global." + MODEL,
            "arn:aws:bedrock:us-east-1::foundation-model/" + MODEL,
            "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us." + MODEL,
            "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5f6",
            "arn:aws:bedrock:us-east-1:123456789012:provisioned-model/abcdef123456",
            "arn:aws:bedrock:us-east-1:123456789012:custom-model/anthropic.claude-3-haiku-20240307-v1:0:200k/ab12cd34ef56",
            "arn:aws:bedrock:us-east-1:123456789012:imported-model/xyz789",
            "arn:aws-us-gov:bedrock:us-gov-west-1:123456789012:inference-profile/us-gov." + MODEL})
    void thePathIsWhatTheAwsSdkSends(String id) {
        sdk.invokeModel(b -> b.modelId(id).contentType("application/json").body(SdkBytes.fromUtf8String("{}")));
        assertThat(server.last().rawPath()).isEqualTo(BedrockInvoke.path(BedrockModelId.parse(id), false));
        sdk.countTokens(b -> b.modelId(id).input(i -> i.invokeModel(m -> m.body(SdkBytes.fromUtf8String("{}")))));
        assertThat(server.last().rawPath()).isEqualTo("/model/" + BedrockModelId.parse(id).pathSegment() + "/count-tokens");
    }

    @Test
    void anArnsColonsAndSlashesAreEncodedOnce() {
        assertThat(BedrockModelId.parse("arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2").pathSegment())
                .isEqualTo("arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fa1b2");
    }

    @ParameterizedTest
    @CsvSource({
            MODEL + ", FOUNDATION_MODEL, " + MODEL,
            "meta.llama3-70b-instruct-v1:0, FOUNDATION_MODEL, meta.llama3-70b-instruct-v1:0",
            "qwen.qwen3-32b-v1:0, FOUNDATION_MODEL, qwen.qwen3-32b-v1:0",
            "us." + MODEL + ", INFERENCE_PROFILE, " + MODEL,
            "eu." + MODEL + ", INFERENCE_PROFILE, " + MODEL,
            "apac." + MODEL + ", INFERENCE_PROFILE, " + MODEL,
            "global." + MODEL + ", INFERENCE_PROFILE, " + MODEL,
            "jp." + MODEL + ", INFERENCE_PROFILE, " + MODEL,
            "us-gov." + MODEL + ", INFERENCE_PROFILE, " + MODEL,
            "us.meta.llama3-2-90b-instruct-v1:0, INFERENCE_PROFILE, meta.llama3-2-90b-instruct-v1:0",
            "arn:aws:bedrock:us-east-1::foundation-model/" + MODEL + ", FOUNDATION_MODEL_ARN, " + MODEL,
            "arn:aws:bedrock:us-east-1:123456789012:inference-profile/eu." + MODEL + ", SYSTEM_PROFILE_ARN, " + MODEL,
            "arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/claude-sonnet, APPLICATION_PROFILE_ARN, ",
            "arn:aws:bedrock:us-east-1:123456789012:provisioned-model/anthropic-claude, PROVISIONED_MODEL_ARN, ",
            "arn:aws:bedrock:us-east-1:123456789012:custom-model-deployment/abc, CUSTOM_MODEL_ARN, "})
    void idsAreClassified(String id, Kind kind, String foundation) {
        BedrockModelId parsed = BedrockModelId.parse(id);
        assertThat(parsed.kind()).isEqualTo(kind);
        assertThat(parsed.foundationModel()).isEqualTo(foundation);
    }

    @Test
    void anArnNamedLikeVendorAsModelIsVendorAsOnlyByItsDeclaredBaseModel() {
        // Bifrost #6933: capability guessed from the name; here the name says nothing
        BedrockModelId named = BedrockModelId.parse("arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/anthropic.claude-x");
        assertThat(named.isVendorA(null)).isFalse();
        assertThat(named.isVendorA(Capabilities.NATIVE)).isFalse();
        assertThat(named.isVendorA(declared(MODEL))).isTrue();
        assertThat(named.isVendorA(declared("us." + MODEL))).isTrue();
        assertThat(named.isVendorA(declared("amazon.nova-pro-v1:0"))).isFalse();
        assertThat(BedrockModelId.parse("us." + MODEL).isVendorA(null)).isTrue();
        assertThat(BedrockModelId.parse("us.amazon.nova-pro-v1:0").isVendorA(declared(MODEL))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "claude", "arn:aws:s3:::bucket/key", "arn:aws:bedrock:us-east-1:1:agent/abc", "Anthropic Claude"})
    void whatIsNoBedrockIdIsRefusedSayingWhatIs(String id) {
        assertThatThrownBy(() -> BedrockModelId.parse(id)).isInstanceOf(IllegalArgumentException.class);
    }

    private static Capabilities declared(String baseModel) {
        return new Capabilities(true, Set.of(), true, null, null, baseModel);
    }
}
