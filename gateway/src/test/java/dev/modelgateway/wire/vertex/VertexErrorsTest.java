package dev.modelgateway.wire.vertex;

import dev.modelgateway.error.AttemptFailure;
import dev.modelgateway.error.ErrorKind;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.routing.AttemptPlan.Verdict;
import dev.modelgateway.routing.RetryRule;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class VertexErrorsTest {
    private static final VertexLocation AT = new VertexLocation("my-project", "us-east5");

    private static GatewayException decode(int status, String body) {
        return VertexErrors.decode(status, body, AT, "claude-sonnet-4@20250514");
    }

    @Test
    void quotaExhaustedIsA429ThatMovesToAnotherDeploymentWithGooglesRetryDelay() {
        GatewayException e = decode(429, """
                {"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-sonnet-4.","status":"RESOURCE_EXHAUSTED",
                 "details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"7.2s"}]}}""");
        assertThat(e.status()).isEqualTo(429);
        assertThat(e.kind()).isEqualTo(ErrorKind.RATE_LIMIT);
        assertThat(e.getMessage()).contains("Quota exceeded");
        assertThat(e.headers()).containsEntry("retry-after", "8");
        assertThat(RetryRule.verdict(AttemptFailure.of(e))).isEqualTo(Verdict.RETRY);
    }

    @Test
    void theStreamsArrayFormIsReadLikeTheObject() {
        GatewayException e = decode(429, """
                [{"error":{"code":429,"message":"Resource exhausted. Please try again later.","status":"RESOURCE_EXHAUSTED"}}]""");
        assertThat(e.status()).isEqualTo(429);
        assertThat(e.code()).isEqualTo("RESOURCE_EXHAUSTED");
    }

    @Test
    void anExpiredTokenCarriesTheCodeThatAsksForOneRefresh() {
        GatewayException e = decode(401, """
                {"error":{"code":401,"message":"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.","status":"UNAUTHENTICATED"}}""");
        assertThat(e.status()).isEqualTo(401);
        assertThat(e.code()).isEqualTo(VertexErrors.TOKEN_REJECTED);
        assertThat(VertexErrors.tokenRejected(e)).isTrue();
        assertThat(VertexErrors.tokenRejected(decode(429, "{}"))).isFalse();
        // a 401 without a Status body (a proxy's) is the token too
        assertThat(VertexErrors.tokenRejected(decode(401, ""))).isTrue();
    }

    @Test
    void permissionDeniedIsA403ThatStops() {
        GatewayException e = decode(403, """
                {"error":{"code":403,"message":"Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/my-project/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514' (or it may not exist).","status":"PERMISSION_DENIED"}}""");
        assertThat(e.status()).isEqualTo(403);
        assertThat(e.code()).isEqualTo(VertexErrors.PERMISSION_DENIED);
        assertThat(e.getMessage()).contains("my-project").contains("aiplatform.endpoints.predict");
        assertThat(RetryRule.verdict(AttemptFailure.of(e))).isEqualTo(Verdict.STOP);
    }

    @Test
    void notFoundNamesTheModelAndLocation() {
        GatewayException e = VertexErrors.decode(404, """
                {"error":{"code":404,"message":"Publisher Model `projects/my-project/locations/europe-west1/publishers/google/models/gemini-9` not found.","status":"NOT_FOUND"}}""", AT, null);
        assertThat(e.status()).isEqualTo(404);
        assertThat(e.code()).isEqualTo(VertexErrors.MODEL_NOT_FOUND);
        assertThat(e.getMessage()).contains("model 'gemini-9'").contains("location 'europe-west1'").contains("my-project");
        assertThat(decode(404, "{\"error\":{\"code\":404,\"message\":\"Not found.\",\"status\":\"NOT_FOUND\"}}").getMessage())
                .contains("model 'claude-sonnet-4@20250514'").contains("location 'us-east5'");
    }

    @Test
    void theOtherStatusesMapByName() {
        assertThat(decode(400, status(400, "INVALID_ARGUMENT")).status()).isEqualTo(400);
        assertThat(decode(400, status(400, "FAILED_PRECONDITION")).kind()).isEqualTo(ErrorKind.INVALID_REQUEST);
        assertThat(decode(503, status(503, "UNAVAILABLE")).kind()).isEqualTo(ErrorKind.UNAVAILABLE);
        GatewayException deadline = decode(504, status(504, "DEADLINE_EXCEEDED"));
        assertThat(deadline.status()).isEqualTo(504);
        assertThat(deadline.kind()).isEqualTo(ErrorKind.TIMEOUT);
        assertThat(decode(500, status(500, "INTERNAL")).status()).isEqualTo(500);
    }

    @Test
    void vendorAsOwnErrorsBehindRawPredictAreVendorAs() {
        String overloaded = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
        assertThat(VertexErrors.isAnthropicShape(overloaded)).isTrue();
        assertThat(VertexErrors.isAnthropicShape(status(429, "RESOURCE_EXHAUSTED"))).isFalse();
        GatewayException e = decode(529, overloaded);
        assertThat(e.status()).isEqualTo(529);
        assertThat(e.code()).isEqualTo("overloaded_error");
        assertThat(decode(400, "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"messages: bad\"}}").getMessage())
                .isEqualTo("messages: bad");
    }

    @Test
    void theCodecsDecodeVertexErrors() {
        assertThat(new VertexAnthropicCodec(AT).decodeError(429, status(429, "RESOURCE_EXHAUSTED")).status()).isEqualTo(429);
        assertThat(VertexErrors.tokenRejected(new VertexGeminiCodec(AT).decodeError(401, status(401, "UNAUTHENTICATED")))).isTrue();
    }

    private static String status(int code, String status) {
        return "{\"error\":{\"code\":" + code + ",\"message\":\"m\",\"status\":\"" + status + "\"}}";
    }
}
