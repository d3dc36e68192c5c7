package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A team's limits are shared by its keys and held exactly by two instances on one PostgreSQL and one Redis:
 * its requests per minute and its monthly budget, each checked on top of the key's own (docs/accounts.md, "Teams").
 */
@E2e
class TeamsAcrossInstancesTest extends TwoInstances {
    static final String MODEL = "platform/vendorA-sonnet-4.5";
    static final String BODY = "{\"model\":\"" + MODEL + "\",\"max_tokens\":64,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";

    @Test
    void aTeamsRequestsPerMinuteAreSharedByItsKeysOnBothInstances() {
        AdminApi admin = new AdminApi(a);
        String team = createTeam(admin, "{\"name\":\"research\",\"rpm\":6}");
        AdminApi.CreatedKey k1 = admin.create("{\"name\":\"alice\",\"team_id\":\"" + team + "\"}");
        AdminApi.CreatedKey k2 = admin.create("{\"name\":\"bob\",\"team_id\":\"" + team + "\",\"rpm\":100}");
        AdminApi.CreatedKey outside = admin.create("{\"name\":\"carol\"}");

        List<HttpResponse<String>> responses = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            GatewayHarness g = i % 2 == 0 ? a : b;
            responses.add(g.post("/api/v1/messages", BODY, "authorization", "Bearer " + (i % 3 == 0 ? k1 : k2).secret()));
        }
        assertThat(responses).filteredOn(r -> r.statusCode() == 200).hasSize(6);
        assertThat(responses).filteredOn(r -> r.statusCode() == 429).hasSize(8)
                .allSatisfy(r -> assertThat(r.body()).contains("team 'research'").contains("6 requests per minute"));
        assertThat(b.post("/api/v1/messages", BODY, "authorization", "Bearer " + outside.secret()).statusCode())
                .as("a key outside the team is not limited by it").isEqualTo(200);
        JsonNode view = new AdminApi(b).get("/api/v1/admin/rate-limits").path("teams").get(0);
        assertThat(view.path("team_id").asText()).isEqualTo(team);
        assertThat(view.path("requests").path("remaining").asLong()).as("the team's bucket, seen from the other instance").isZero();
        assertThat(LedgerRows.await(stores.databaseUrl(), k1.id(), 5).size() + LedgerRows.await(stores.databaseUrl(), k2.id(), 9).size())
                .isEqualTo(14);
    }

    @Test
    void aTeamsMonthlyBudgetIsHeldExactlyAcrossInstances() throws Exception {
        AdminApi admin = new AdminApi(a);
        // one call's cost, measured on a key of its own
        AdminApi.CreatedKey probe = admin.create("{\"name\":\"probe\"}");
        HttpResponse<String> first = a.post("/api/v1/messages", BODY, "authorization", "Bearer " + probe.secret());
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        Usage usage = LedgerThroughGatewayContract.anthropicUsage(Json.parseOrNull(first.body()).path("usage"));
        long callE10 = LedgerThroughGatewayContract.sonnetCostE10(usage);
        assertThat(callE10).isPositive();
        // room for three and a half calls: the fourth is admitted (spent 3 < budget), the fifth is not
        BigDecimal budget = BigDecimal.valueOf(callE10 * 7 / 2, 10);
        String team = createTeam(admin, "{\"name\":\"lab\",\"budget_usd\":\"" + budget.toPlainString()
                + "\",\"budget_period\":\"month\"}");
        AdminApi.CreatedKey k1 = admin.create("{\"name\":\"k1\",\"team_id\":\"" + team + "\"}");
        AdminApi.CreatedKey k2 = admin.create("{\"name\":\"k2\",\"team_id\":\"" + team + "\",\"budget_usd\":100,\"budget_period\":\"day\"}");

        List<HttpResponse<String>> responses = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            GatewayHarness g = i % 2 == 0 ? a : b;
            responses.add(g.post("/api/v1/messages", BODY, "authorization", "Bearer " + (i % 2 == 0 ? k2 : k1).secret()));
        }
        assertThat(responses).extracting(HttpResponse::statusCode)
                .containsExactly(200, 200, 200, 200, 429, 429, 429, 429, 429, 429);
        assertThat(responses.get(4).body()).contains("Team 'lab'").contains("monthly budget");

        String month = "m" + LocalDate.now(ZoneOffset.UTC).toString().substring(0, 7);
        List<LedgerRows.Row> rows = new ArrayList<>(LedgerRows.await(stores.databaseUrl(), k1.id(), 5));
        rows.addAll(LedgerRows.await(stores.databaseUrl(), k2.id(), 5));
        assertThat(rows).hasSize(10);
        long spent = rows.stream().mapToLong(LedgerRows.Row::costE10).sum();
        assertThat(spent).isEqualTo(4 * callE10);
        try (Connection c = DriverManager.getConnection(stores.databaseUrl()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT spent_usd_e10 FROM budget_spend WHERE holder = 'team:" + team
                     + "' AND period = '" + month + "'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(spent);
        }
        // each instance reads the other's spend back from the database within a second
        JsonNode onB = Eventually.value("B reading A's spend", Duration.ofSeconds(10), () -> new AdminApi(b).get("/api/v1/admin/teams/" + team),
                t -> new BigDecimal(t.path("period_spent_usd").asText()).compareTo(BigDecimal.valueOf(spent, 10)) == 0);
        assertThat(onB.path("budget_period").asText()).isEqualTo("month");
    }

    @Test
    void aTeamsAllowListAppliesToItsKeys() {
        AdminApi admin = new AdminApi(a);
        String team = createTeam(admin, "{\"name\":\"narrow\",\"models\":[\"platform/vendorB-*\"]}");
        AdminApi.CreatedKey key = admin.create("{\"name\":\"k\",\"team_id\":\"" + team + "\"}");
        HttpResponse<String> r = b.post("/api/v1/messages", BODY, "authorization", "Bearer " + key.secret());
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("team 'narrow'").contains(MODEL);
        HttpResponse<String> unknown = admin.call("POST", "/api/v1/admin/keys", "{\"name\":\"x\",\"team_id\":\"team_nope\"}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("team_id");
        HttpResponse<String> notEmpty = admin.call("DELETE", "/api/v1/admin/teams/" + team, null);
        assertThat(notEmpty.statusCode()).isEqualTo(409);
    }

    static String createTeam(AdminApi admin, String json) {
        HttpResponse<String> r = admin.call("POST", "/api/v1/admin/teams", json);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return Json.parseOrNull(r.body()).path("id").asText();
    }
}
