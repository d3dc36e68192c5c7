package dev.modelgateway.wire.bedrock;

import dev.modelgateway.error.AttemptFailure;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.routing.AttemptPlan.Verdict;
import dev.modelgateway.routing.RetryRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BedrockErrorsTest {
    private static final String ON_DEMAND = "Invocation of model ID anthropic.claude-sonnet-4-5-20250929-v1:0 with on-demand throughput"
            + " isn’t supported. Retry your request with the ID or ARN of an inference profile that contains this model.";

    /** Each error of InvokeModel / InvokeModelWithResponseStream, at AWS's status, and what the retry rule does with it. */
    @ParameterizedTest
    @CsvSource({
            "ThrottlingException, 429, 429, RETRY",
            "ServiceQuotaExceededException, 400, 429, RETRY",
            "ModelNotReadyException, 429, 429, RETRY",
            "ServiceUnavailableException, 503, 503, RETRY",
            "InternalServerException, 500, 500, RETRY",
            "ModelTimeoutException, 408, 504, RETRY",
            "ModelStreamErrorException, 424, 502, RETRY",
            "ModelErrorException, 424, 502, RETRY",
            "AccessDeniedException, 403, 403, STOP",
            "ValidationException, 400, 400, STOP",
            "ResourceNotFoundException, 404, 404, STOP",
            "UnrecognizedClientException, 403, 502, NEXT_MODEL",
            "InvalidSignatureException, 403, 502, NEXT_MODEL",
            "ExpiredTokenException, 403, 502, NEXT_MODEL"})
    void eachErrorTypeMapsToTheRetryRulesVerdict(String type, int awsStatus, int status, Verdict verdict) {
        GatewayException e = BedrockErrors.fromResponse(awsStatus,
                headers(Map.of("x-amzn-ErrorType", type + ":http://internal.amazon.com/coral/com.amazon.bedrock/")),
                "{\"message\":\"m\"}".getBytes(StandardCharsets.UTF_8), "us-east-1");
        assertThat(e.status()).isEqualTo(status);
        assertThat(RetryRule.verdict(AttemptFailure.of(e))).isEqualTo(verdict);
    }

    @Test
    void anEmptyObjectBodyTakesTheMessageFromTheHeader() {
        GatewayException e = BedrockErrors.fromResponse(429, headers(Map.of("x-amzn-ErrorType", "ThrottlingException:http://internal.amazon.com/x",
                "x-amzn-errormessage", "Too many tokens, please wait before trying again.")), "{}".getBytes(StandardCharsets.UTF_8), null);
        assertThat(e.getMessage()).isEqualTo("Too many tokens, please wait before trying again.");
        assertThat(e.code()).isEqualTo("ThrottlingException");
        assertThat(e.kind()).isEqualTo(ErrorKind.RATE_LIMIT);
    }

    @Test
    void theTypeMayComeFromTheBodyAndTheMessageCapitalised() {
        GatewayException e = BedrockErrors.fromResponse(400, headers(Map.of()),
                "{\"__type\":\"com.amazon.coral.validate#ValidationException\",\"Message\":\"bad field\"}".getBytes(StandardCharsets.UTF_8), null);
        assertThat(e.code()).isEqualTo("ValidationException");
        assertThat(e.getMessage()).isEqualTo("bad field");
        assertThat(e.status()).isEqualTo(400);
    }

    @Test
    void anUnknownTypeFallsBackToTheStatus() {
        GatewayException e = BedrockErrors.fromResponse(502, headers(Map.of()), new byte[0], null);
        assertThat(e.status()).isEqualTo(502);
        assertThat(e.getMessage()).isEqualTo("Bedrock answered HTTP 502");
    }

    @ParameterizedTest
    @CsvSource({
            "us-east-1, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'",
            "us-west-2, 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'",
            "eu-central-1, 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0'",
            "ap-northeast-1, 'apac.anthropic.claude-sonnet-4-5-20250929-v1:0'",
            "us-gov-west-1, 'us-gov.anthropic.claude-sonnet-4-5-20250929-v1:0'"})
    void theOnDemandRefusalNamesTheProfileToConfigure(String region, String profile) {
        GatewayException e = BedrockErrors.fromResponse(400, headers(Map.of("x-amzn-ErrorType", "ValidationException:http://internal.amazon.com/x")),
                ("{\"message\":\"" + ON_DEMAND + "\"}").getBytes(StandardCharsets.UTF_8), region);
        assertThat(e.status()).isEqualTo(400);
        assertThat(e.getMessage()).startsWith(ON_DEMAND).contains("configure '" + profile + "'")
                .contains("'global.anthropic.claude-sonnet-4-5-20250929-v1:0'");
        assertThat(RetryRule.verdict(AttemptFailure.of(e))).isEqualTo(Verdict.STOP);
    }

    @Test
    void withoutARegionEveryGeographyIsNamed() {
        assertThat(BedrockErrors.onDemand(ON_DEMAND, null)).contains("'us.anthropic.", "'eu.anthropic.", "'apac.anthropic.", "'global.anthropic.");
    }

    private static java.util.function.Function<String, String> headers(Map<String, String> h) {
        io.vertx.core.MultiMap m = io.vertx.core.MultiMap.caseInsensitiveMultiMap();
        h.forEach(m::set);
        return m::get;
    }
}
