package dev.modelgateway.e2e.accounts;

import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two gateways sharing PostgreSQL and Redis hold a key's concurrency slots and budget reservations together:
 * concurrent calls split between them are admitted as if one instance served them all.
 */
@E2e
class SharedHoldsTest extends TwoInstances {
    /** {@code n} calls at once, alternately on each instance, each 800 ms at the vendor. */
    List<HttpResponse<String>> concurrentSlowCalls(AdminApi.CreatedKey key, int n, String mark) throws Exception {
        String body = "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:delay_ms=800;"
                + mark + "]] hi\"}]}";
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<Future<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            GatewayHarness gateway = i % 2 == 0 ? a : b;
            calls.add(pool.submit(() -> gateway.post("/api/v1/chat/completions", body, "authorization", "Bearer " + key.secret())));
        }
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (Future<HttpResponse<String>> c : calls) answers.add(c.get(30, TimeUnit.SECONDS));
        pool.shutdown();
        return answers;
    }

    static String code(HttpResponse<String> r) {
        return Json.parseOrNull(r.body()).at("/error/code").asText();
    }

    @Test
    void aSmallBudgetIsReservedAcrossInstances() throws Exception {
        // one call may cost up to ~1,000 output tokens: more than this whole budget
        AdminApi.CreatedKey key = new AdminApi(a).create("{\"name\":\"shared-budget\",\"budget_usd\":\"0.005\"}");
        String mark = "id=" + UUID.randomUUID().toString().substring(0, 8);

        List<HttpResponse<String>> answers = concurrentSlowCalls(key, 20, mark);

        assertThat(answers).filteredOn(r -> r.statusCode() == 200).as("overshoot by at most one call").hasSize(1);
        assertThat(answers).filteredOn(r -> r.statusCode() != 200).hasSize(19)
                .allSatisfy(r -> assertThat(code(r)).isEqualTo("budget_reserved"));
        assertThat(a.sim.received().stream().filter(r -> r.body().contains(mark))).hasSize(1);
    }

    @Test
    void concurrencySlotsAreCountedAcrossInstances() throws Exception {
        AdminApi.CreatedKey key = new AdminApi(a).create("{\"name\":\"shared-slots\",\"max_concurrent\":2}");
        String mark = "id=" + UUID.randomUUID().toString().substring(0, 8);

        List<HttpResponse<String>> answers = concurrentSlowCalls(key, 8, mark);

        assertThat(answers).filteredOn(r -> r.statusCode() == 200).hasSize(2);
        assertThat(answers).filteredOn(r -> r.statusCode() == 429).hasSize(6)
                .allSatisfy(r -> assertThat(code(r)).isEqualTo("concurrency_limit_exceeded"));
        // the answers are out before their ledger records, which give the leases back
        Eventually.until("every lease given back, nothing else kept", Duration.ofSeconds(3), () -> stores.redisKeyCount() == 0);
        assertThat(a.post("/api/v1/chat/completions", "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"hi\"}]}", "authorization", "Bearer " + key.secret()).statusCode()).isEqualTo(200);
    }
}
