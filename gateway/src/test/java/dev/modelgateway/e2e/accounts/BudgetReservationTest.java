package dev.modelgateway.e2e.accounts;

import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrent calls on one key cannot overshoot its budget by more than one call's maximum: each admitted call
 * reserves what it may cost until its usage is recorded, and the reservations count as spent.
 */
@ExtendWith(PerClassGateway.class)
@E2e
class BudgetReservationTest {
    static GatewayHarness h;
    static AdminApi admin;

    @Test
    void concurrentSlowCallsOnASmallBudgetAreAdmittedOneReservationAtATime() throws Exception {
        // one call may cost up to ~1,000 output tokens: more than this whole budget
        AdminApi.CreatedKey key = admin.create("{\"name\":\"small-budget\",\"budget_usd\":\"0.005\"}");
        String mark = "id=" + UUID.randomUUID().toString().substring(0, 8);
        String body = "{\"model\":\"platform/vendorB-5.5\",\"messages\":[{\"role\":\"user\",\"content\":\"[[sim:delay_ms=800;"
                + mark + "]] hi\"}]}";
        ExecutorService pool = Executors.newFixedThreadPool(20);
        List<Future<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(pool.submit(() -> h.post("/api/v1/chat/completions", body, "authorization", "Bearer " + key.secret())));
        }
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (Future<HttpResponse<String>> c : calls) answers.add(c.get(30, TimeUnit.SECONDS));
        pool.shutdown();

        long served = answers.stream().filter(r -> r.statusCode() == 200).count();
        List<HttpResponse<String>> refused = answers.stream().filter(r -> r.statusCode() != 200).toList();
        assertThat(served).as("calls served while the first held the budget").isEqualTo(1);
        assertThat(refused).hasSize(19).allSatisfy(r -> {
            assertThat(r.statusCode()).isEqualTo(429);
            assertThat(Json.parseOrNull(r.body()).at("/error/code").asText()).isEqualTo("budget_reserved");
            assertThat(r.headers().firstValue("retry-after")).hasValue("1");
        });
        assertThat(h.sim.received().stream().filter(r -> r.body().contains(mark))).hasSize(1);
    }
}
