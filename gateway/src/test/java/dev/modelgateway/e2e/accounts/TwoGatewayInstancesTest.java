package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.http.TraceId;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two gateways, each on its own Vert.x, in front of one simulator and sharing one PostgreSQL schema and
 * one Redis prefix: one rate limit enforced together, one consistent ledger.
 */
@E2e
class TwoGatewayInstancesTest extends TwoInstances {
    static final String MODEL = "platform/vendorA-sonnet-4.5";

    @Test
    void oneRateLimitAndOneLedgerAcrossInstances() throws Exception {
        AdminApi.CreatedKey key = new AdminApi(a).create("{\"name\":\"shared\",\"rpm\":5}");
        String body = "{\"model\":\"" + MODEL + "\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

        List<HttpResponse<String>> responses = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            GatewayHarness gateway = i % 2 == 0 ? a : b;
            responses.add(gateway.post("/api/v1/messages", body, "authorization", "Bearer " + key.secret()));
        }
        assertThat(responses).filteredOn(r -> r.statusCode() == 200).hasSize(5);
        assertThat(responses).filteredOn(r -> r.statusCode() == 429).hasSize(7)
                .allSatisfy(r -> assertThat(r.headers().firstValue("retry-after")).isPresent());
        assertThat(responses.stream().filter(r -> r.statusCode() == 200)
                .map(r -> r.headers().firstValue("x-ratelimit-remaining-requests").orElseThrow()))
                .as("the bucket counts down across both instances").containsExactly("4", "3", "2", "1", "0");
        assertThat(stores.redisStateKeyCount()).as("counters under this test's Redis prefix").isEqualTo(1);

        Usage served = Usage.ZERO;
        Set<String> traces = new HashSet<>();
        for (HttpResponse<String> r : responses) {
            traces.add(r.headers().firstValue(TraceId.HEADER).orElseThrow());
            if (r.statusCode() == 200) served = served.plus(LedgerThroughGatewayContract.anthropicUsage(Json.parseOrNull(r.body()).path("usage")));
        }
        List<LedgerRows.Row> rows = LedgerRows.await(stores.databaseUrl(), key.id(), 12);
        assertThat(rows).hasSize(12);
        assertThat(rows).extracting(LedgerRows.Row::traceId).containsExactlyInAnyOrderElementsOf(traces);
        assertThat(rows.stream().map(LedgerRows.Row::usage).reduce(Usage.ZERO, Usage::plus)).isEqualTo(served);
        long cost = rows.stream().mapToLong(LedgerRows.Row::costE10).sum();
        assertThat(cost).isEqualTo(LedgerThroughGatewayContract.sonnetCostE10(served));

        // Both instances report the same usage, and the key's running spend equals the ledger's sum.
        JsonNode onA = new AdminApi(a).get("/api/v1/admin/usage?group_by=key");
        JsonNode onB = new AdminApi(b).get("/api/v1/admin/usage?group_by=key");
        assertThat(onA.path("data")).isEqualTo(onB.path("data"));
        assertThat(onA.path("total").path("requests").asLong()).isEqualTo(12);
        assertThat(onA.path("total").path("failed_requests").asLong()).isEqualTo(7);
        try (Connection c = DriverManager.getConnection(stores.databaseUrl()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT spent_usd_e10 FROM api_keys WHERE id = '" + key.id() + "'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(cost);
        }
    }
}
