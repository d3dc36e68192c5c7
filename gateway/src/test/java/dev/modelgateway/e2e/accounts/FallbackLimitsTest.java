package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.sim.ReceivedRequest;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key's allow-list and per-model limits hold for every model of a call's plan, not only its primary:
 * {@code platform_options.fallbacks} must not reach a model the key may not use, nor one whose own limit is spent.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class FallbackLimitsTest {
    static GatewayHarness h;
    static AdminApi admin;

    private static String mark() {
        return "id=" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The primary fails twice with a 500 (its one retry included), so the plan moves to the fallback. */
    private static HttpResponse<String> chatFallingBack(String key, String mark, String fallback) {
        return h.post("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\",\"platform_options\":{\"max_retries\":1,\"fallbacks\":[\""
                + fallback + "\"]},\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:status=500;times=2;" + mark + "]] hi\"}]}",
                "authorization", "Bearer " + key);
    }

    private static List<ReceivedRequest> upstream(String mark) {
        return h.sim.received().stream().filter(r -> r.body().contains(mark)).toList();
    }

    @Test
    void aFallbackOutsideTheAllowListRefusesTheCallBeforeAnythingIsSent() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"one-model\",\"models\":[\"platform/vendorB-5.5\"]}");
        String mark = mark();

        HttpResponse<String> r = chatFallingBack(key.secret(), mark, "platform/vendorB-5.4");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(403);
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        assertThat(error.path("code").asText()).isEqualTo("model_not_allowed");
        assertThat(error.path("param").asText()).isEqualTo("platform_options.fallbacks[0]");
        assertThat(error.path("message").asText()).contains("platform/vendorB-5.4");
        assertThat(upstream(mark)).as("nothing went to any vendor").isEmpty();
    }

    @Test
    void aFallbackWhoseOwnLimitIsSpentIsNotServed() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"limited-fallback\",\"models\":[\"platform/vendorB-*\"],"
                + "\"model_limits\":{\"platform/vendorB-5.4\":{\"rpm\":1}}}");

        String first = mark();
        HttpResponse<String> served = chatFallingBack(key.secret(), first, "platform/vendorB-5.4");
        assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
        assertThat(served.headers().firstValue("x-platform-model")).hasValue("platform/vendorB-5.4");

        String second = mark();
        HttpResponse<String> refused = chatFallingBack(key.secret(), second, "platform/vendorB-5.4");
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(429);
        JsonNode error = Json.parseOrNull(refused.body()).path("error");
        assertThat(error.path("message").asText()).contains("platform/vendorB-5.5 → 500").contains("platform/vendorB-5.4 → 429");
        assertThat(upstream(second)).as("only the primary was called; the spent fallback never was")
                .extracting(r -> Json.parseOrNull(r.body()).path("model").asText())
                .containsExactly("vendorB-5.5", "vendorB-5.5");
    }
}
