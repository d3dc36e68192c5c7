package dev.modelgateway.e2e.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's read API and pages through the gateway: what the master key and a team's key each see. */
@ExtendWith(PerClassGateway.class)
@E2e
class ConsoleApiTest {
    static final String MODEL = "platform/vendorB-5.5";

    static GatewayHarness h;
    static AdminApi admin;

    static JsonNode get(String key, String path) {
        HttpResponse<String> r = h.get(path, "authorization", "Bearer " + key);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return Json.parseOrNull(r.body());
    }

    /** Polls a console route until the answer satisfies {@code done}: the ledger and the rollups are asynchronous. */
    static JsonNode await(String key, String path, Predicate<JsonNode> done) {
        return Eventually.value(path, Duration.ofSeconds(60), () -> get(key, path), done);
    }

    @Test
    void usageAndRequestsShowAKeysCallsToItselfAndToTheMasterKeyOnly() throws Exception {
        AdminApi.CreatedKey team = admin.create("{\"name\":\"console-team\",\"rpm\":100,\"budget_usd\":\"5\"}");
        AdminApi.CreatedKey other = admin.create("{\"name\":\"console-other\"}");
        OpenAIClient openai = h.openai(team.secret());
        for (int i = 0; i < 3; i++) {
            openai.chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("hi " + i).build());
        }

        JsonNode usage = await(GatewayHarness.KEY, "/api/v1/console/usage?grain=hour&dimension=key",
                u -> sum(u, team.id(), "requests") == 3);
        assertThat(sum(usage, team.id(), "output_tokens")).isPositive();
        assertThat(usage.path("histogram_bounds_ms").size()).isEqualTo(9);

        JsonNode requests = await(GatewayHarness.KEY, "/api/v1/console/requests?key=" + team.id(), r -> r.path("data").size() == 3);
        JsonNode newest = requests.path("data").get(0);
        assertThat(newest.path("model").asText()).isEqualTo(MODEL);
        assertThat(newest.path("status").asInt()).isEqualTo(200);
        assertThat(newest.path("trace_id").asText()).isNotBlank();
        JsonNode page = get(GatewayHarness.KEY, "/api/v1/console/requests?limit=2&key=" + team.id());
        JsonNode next = get(GatewayHarness.KEY, "/api/v1/console/requests?limit=2&key=" + team.id() + "&before=" + page.path("next").asText());
        assertThat(next.path("data").size()).isEqualTo(1);
        assertThat(next.path("data").get(0).path("id").asText()).isNotIn(page.path("data").get(0).path("id").asText(),
                page.path("data").get(1).path("id").asText());
        assertThat(get(GatewayHarness.KEY, "/api/v1/console/requests/" + newest.path("id").asText()).path("trace_id").asText())
                .isEqualTo(newest.path("trace_id").asText());

        // the team's key: its own rows and limits, nothing of another key's
        JsonNode me = get(team.secret(), "/api/v1/console/me");
        assertThat(me.path("admin").asBoolean()).isFalse();
        assertThat(me.path("rpm").asLong()).isEqualTo(100);
        assertThat(me.path("budget_usd").asText()).isEqualTo("5");
        assertThat(get(team.secret(), "/api/v1/console/requests?key=" + other.id()).path("data").size()).isEqualTo(3);
        assertThat(get(other.secret(), "/api/v1/console/requests").path("data").size()).isZero();
        assertThat(h.get("/api/v1/console/requests/" + newest.path("id").asText(), "authorization", "Bearer " + other.secret()).statusCode())
                .isEqualTo(404);
        assertThat(get(other.secret(), "/api/v1/console/usage?grain=hour").path("data").size()).isZero();

        HttpResponse<String> csv = h.get("/api/v1/console/usage.csv?grain=hour&dimension=model&key=" + team.id(), "authorization", "Bearer " + GatewayHarness.KEY);
        assertThat(csv.headers().firstValue("content-type")).hasValue("text/csv; charset=utf-8");
        assertThat(csv.body()).startsWith("bucket,group,requests,").contains("," + MODEL + ",3,0,");
    }

    /** Issue 33: the user a call is billed to (a key's owner here) is a usage dimension and a requests column and filter. */
    @Test
    void callsBilledToTwoUsersShowPerUserAndAKeySeesOnlyItsOwn() throws Exception {
        String ada = "usr_console_ada", bob = "usr_console_bob";
        sql("INSERT INTO users (id, user_name, created_at_ms, updated_at_ms) VALUES ('" + ada + "', 'ada@console.test', 1, 1)");
        sql("INSERT INTO users (id, user_name, created_at_ms, updated_at_ms) VALUES ('" + bob + "', 'bob@console.test', 1, 1)");
        AdminApi.CreatedKey adas = admin.create("{\"name\":\"adas-key\"}");
        AdminApi.CreatedKey bobs = admin.create("{\"name\":\"bobs-key\"}");
        // owned before their first use (a key is read, and cached, at its first call)
        sql("UPDATE api_keys SET owner_user_id = '" + ada + "' WHERE id = '" + adas.id() + "'");
        sql("UPDATE api_keys SET owner_user_id = '" + bob + "' WHERE id = '" + bobs.id() + "'");
        for (int i = 0; i < 2; i++) {
            h.openai(adas.secret()).chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("ada " + i).build());
        }
        h.openai(bobs.secret()).chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("bob").build());

        JsonNode byUser = await(GatewayHarness.KEY, "/api/v1/console/usage?grain=hour&dimension=user",
                u -> sum(u, ada, "requests") == 2 && sum(u, bob, "requests") == 1);
        assertThat(byUser.path("dimension").asText()).isEqualTo("user");
        JsonNode byKey = get(GatewayHarness.KEY, "/api/v1/console/usage?grain=hour&dimension=key");
        for (String[] owned : new String[][]{{ada, adas.id()}, {bob, bobs.id()}}) {
            for (String field : new String[]{"input_tokens", "output_tokens"}) {
                assertThat(sum(byUser, owned[0], field)).as(field).isPositive().isEqualTo(sum(byKey, owned[1], field));
            }
            assertThat(cost(byUser, owned[0])).isPositive().isEqualByComparingTo(cost(byKey, owned[1]));
        }
        JsonNode byDay = get(GatewayHarness.KEY, "/api/v1/console/usage?grain=day&dimension=user");
        assertThat(sum(byDay, ada, "requests")).isEqualTo(2);

        // a key's own reach: its own user's rows alone
        JsonNode adasOwn = get(adas.secret(), "/api/v1/console/usage?grain=hour&dimension=user");
        assertThat(sum(adasOwn, ada, "requests")).isEqualTo(2);
        assertThat(adasOwn.toString()).doesNotContain(bob);

        JsonNode bobsCalls = await(GatewayHarness.KEY, "/api/v1/console/requests?user=" + bob, r -> r.path("data").size() == 1);
        assertThat(bobsCalls.path("data").get(0).path("user_id").asText()).isEqualTo(bob);
        assertThat(bobsCalls.path("data").get(0).path("key_id").asText()).isEqualTo(bobs.id());
        assertThat(get(GatewayHarness.KEY, "/api/v1/console/requests?user=" + ada).path("data")).hasSize(2)
                .allSatisfy(r -> assertThat(r.path("user_id").asText()).isEqualTo(ada));
        assertThat(get(adas.secret(), "/api/v1/console/requests?user=" + bob).path("data")).isEmpty();

        HttpResponse<String> csv = h.get("/api/v1/console/usage.csv?grain=hour&dimension=user", "authorization", "Bearer " + GatewayHarness.KEY);
        assertThat(csv.headers().firstValue("content-disposition").orElseThrow()).contains("usage-hour-user.csv");
        assertThat(csv.body()).contains("," + ada + ",2,0,", "," + bob + ",1,0,");
    }

    static void sql(String sql) throws Exception {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(h.databaseUrl); java.sql.Statement st = c.createStatement()) {
            st.executeUpdate(sql);
        }
    }

    private static java.math.BigDecimal cost(JsonNode usage, String group) {
        java.math.BigDecimal n = java.math.BigDecimal.ZERO;
        for (JsonNode row : usage.path("data")) if (row.path("group").asText().equals(group)) n = n.add(new java.math.BigDecimal(row.path("cost_usd").asText()));
        return n;
    }

    static String team(String json) {
        HttpResponse<String> r = admin.call("POST", "/api/v1/admin/teams", json);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        return Json.parseOrNull(r.body()).path("id").asText();
    }

    @Test
    void teamsAreAUsageCutAndAKeySeesItsOwnBucketsAndItsTeamsOnly() throws Exception {
        String squad = team("{\"name\":\"console-squad\",\"rpm\":4,\"budget_usd\":\"3\",\"budget_period\":\"month\"}");
        String rivals = team("{\"name\":\"console-rivals\",\"tpm\":100000}");
        AdminApi.CreatedKey member = admin.create("{\"name\":\"squad-key\",\"team_id\":\"" + squad
                + "\",\"rpm\":3,\"budget_usd\":\"2\",\"budget_period\":\"week\"}");
        AdminApi.CreatedKey rival = admin.create("{\"name\":\"rival-key\",\"team_id\":\"" + rivals + "\",\"rpm\":30}");
        AdminApi.CreatedKey loner = admin.create("{\"name\":\"loner-key\",\"rpm\":10}");
        for (int i = 0; i < 2; i++) {
            h.openai(member.secret()).chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("squad " + i).build());
        }
        h.openai(rival.secret()).chat().completions().create(ChatCompletionCreateParams.builder().model(MODEL).addUserMessage("rival").build());

        // its own buckets, what is left of them (a request back every 20 s), its budget in its period, its team's:
        // nothing of another's
        JsonNode limits = get(member.secret(), "/api/v1/limits");
        assertThat(limits.at("/key/key_id").asText()).isEqualTo(member.id());
        assertThat(limits.at("/key/requests/limit").asLong()).isEqualTo(3);
        assertThat(limits.at("/key/requests/remaining").asLong()).isEqualTo(1);
        assertThat(limits.at("/key/budget_period").asText()).isEqualTo("week");
        assertThat(limits.at("/team/team_id").asText()).isEqualTo(squad);
        assertThat(limits.at("/team/requests/limit").asLong()).isEqualTo(4);
        assertThat(limits.at("/team/requests/remaining").asLong()).isEqualTo(2);
        assertThat(limits.at("/team/budget_usd").asText()).isEqualTo("3");
        assertThat(limits.at("/team/budget_period").asText()).isEqualTo("month");
        assertThat(limits.toString()).doesNotContain(rival.id(), rivals, loner.id(), "rival");
        JsonNode lonerLimits = get(loner.secret(), "/api/v1/limits");
        assertThat(lonerLimits.path("team").isNull()).isTrue();
        assertThat(lonerLimits.at("/key/requests/remaining").asLong()).isEqualTo(10);
        assertThat(lonerLimits.toString()).doesNotContain(member.id(), squad, rival.id(), rivals);
        await(member.secret(), "/api/v1/limits", l -> !l.at("/key/period_spent_usd").asText().equals("0")
                && l.at("/team/period_spent_usd").asText().equals(l.at("/key/period_spent_usd").asText()));
        JsonNode byTeam = await(GatewayHarness.KEY, "/api/v1/console/usage?grain=hour&dimension=team",
                u -> sum(u, squad, "requests") == 2 && sum(u, rivals, "requests") == 1);
        assertThat(byTeam.path("dimension").asText()).isEqualTo("team");
        // a key's own usage by team: its rows alone
        JsonNode rivalsOwn = get(rival.secret(), "/api/v1/console/usage?grain=hour&dimension=team");
        assertThat(sum(rivalsOwn, rivals, "requests")).isEqualTo(1);
        assertThat(sum(rivalsOwn, squad, "requests")).isZero();

        HttpResponse<String> master = h.get("/api/v1/limits", "authorization", "Bearer " + GatewayHarness.KEY);
        assertThat(master.statusCode()).isEqualTo(400);
        assertThat(master.body()).contains("master_key_unlimited");

        // the admin view: every team with its budget's period and spend in it
        JsonNode all = admin.get("/api/v1/admin/rate-limits");
        JsonNode squadRow = null;
        for (JsonNode t : all.path("teams")) if (t.path("team_id").asText().equals(squad)) squadRow = t;
        assertThat(squadRow).isNotNull();
        assertThat(squadRow.path("budget_period").asText()).isEqualTo("month");
        assertThat(squadRow.path("period_spent_usd").asText()).isNotBlank();
        for (JsonNode k : all.path("data")) {
            if (k.path("key_id").asText().equals(member.id())) assertThat(k.path("team_id").asText()).isEqualTo(squad);
        }
    }

    @Test
    void theAuditLogIsTheMasterKeysFilteredAndPaged() {
        String squad = team("{\"name\":\"audited-team\"}");
        AdminApi.CreatedKey key = admin.create("{\"name\":\"audited-key\",\"team_id\":\"" + squad + "\"}");
        admin.patch(key.id(), "{\"rpm\":7}");
        AdminApi.CreatedKey gone = admin.create("{\"name\":\"audited-gone\"}");
        assertThat(admin.call("DELETE", "/api/v1/admin/keys/" + gone.id(), null).statusCode()).isEqualTo(200);

        JsonNode ofKey = get(GatewayHarness.KEY, "/api/v1/console/audit?target=" + key.id());
        assertThat(ofKey.path("data")).extracting(e -> e.path("action").asText()).containsExactly("key.update", "key.create");
        JsonNode update = ofKey.path("data").get(0);
        assertThat(update.path("actor").asText()).isEqualTo("master");
        assertThat(update.at("/before/rpm").isNull()).isTrue();
        assertThat(update.at("/after/rpm").asLong()).isEqualTo(7);
        assertThat(ofKey.path("data").get(1).at("/after/team_id").asText()).isEqualTo(squad);

        JsonNode teams = get(GatewayHarness.KEY, "/api/v1/console/audit?action=team.create");
        assertThat(teams.path("data")).allSatisfy(e -> assertThat(e.path("action").asText()).isEqualTo("team.create"));
        assertThat(teams.path("data")).extracting(e -> e.path("target_id").asText()).contains(squad);
        JsonNode keyFamily = get(GatewayHarness.KEY, "/api/v1/console/audit?target_type=key&limit=200");
        assertThat(keyFamily.path("data")).allSatisfy(e -> assertThat(e.path("action").asText()).startsWith("key."));
        assertThat(keyFamily.path("data")).extracting(e -> e.path("action").asText()).contains("key.create", "key.update", "key.delete");

        JsonNode first = get(GatewayHarness.KEY, "/api/v1/console/audit?limit=2");
        assertThat(first.path("data")).hasSize(2);
        JsonNode second = get(GatewayHarness.KEY, "/api/v1/console/audit?limit=2&before=" + first.path("next").asText());
        assertThat(second.path("data")).isNotEmpty();
        assertThat(second.path("data").get(0).path("at").asText()).isLessThanOrEqualTo(first.path("data").get(1).path("at").asText());
        assertThat(second.path("data").get(0).path("id").asText()).isNotIn(first.path("data").get(0).path("id").asText(),
                first.path("data").get(1).path("id").asText());

        // another key may not read it; no key at all is a 401
        HttpResponse<String> refused = h.get("/api/v1/console/audit", "authorization", "Bearer " + key.secret());
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(Json.parseOrNull(refused.body()).at("/error/code").asText()).isEqualTo("permission_denied");
        assertThat(h.get("/api/v1/console/audit").statusCode()).isEqualTo(401);
        assertThat(h.get("/api/v1/admin/config", "authorization", "Bearer " + key.secret()).statusCode()).isEqualTo(403);
        assertThat(h.get("/api/v1/admin/teams", "authorization", "Bearer " + key.secret()).statusCode()).isEqualTo(403);
    }

    @Test
    void badParametersAre400sNamingTheField() {
        for (String[] c : new String[][]{{"/api/v1/console/usage?grain=week", "grain"}, {"/api/v1/console/usage?from=yesterday", "from"},
                {"/api/v1/console/usage?grain=hour&from=2020-01-01&to=2026-01-01", "from"}, {"/api/v1/console/requests?limit=0", "limit"},
                {"/api/v1/console/requests?before=x", "before"}, {"/api/v1/console/requests?status=maybe", "status"},
                {"/api/v1/console/usage?dimension=squad", "dimension"}, {"/api/v1/console/audit?limit=201", "limit"},
                {"/api/v1/console/audit?action=DROP%20TABLE", "action"}, {"/api/v1/console/audit?target_type=Keys", "target_type"}, {"/api/v1/console/audit?before=12", "before"},
                {"/api/v1/console/audit?target=" + "t".repeat(101), "target"}, {"/api/v1/console/requests?user=" + "u".repeat(41), "user"}}) {
            HttpResponse<String> r = h.get(c[0], "authorization", "Bearer " + GatewayHarness.KEY);
            assertThat(r.statusCode()).as(c[0]).isEqualTo(400);
            assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).as(c[0]).isEqualTo(c[1]);
        }
        assertThat(h.get("/api/v1/console/me").statusCode()).isEqualTo(401);
    }

    /** A far-future or far-past time is a valid instant whose epoch milliseconds overflow: once a 500 for any key. */
    @Test
    void timesOutOfRangeAre400sNamingTheFieldForAnyKey() {
        AdminApi.CreatedKey key = admin.create("{\"name\":\"far-future\"}");
        String future = "%2B999999999-12-31T23:59:59Z";
        for (String[] c : new String[][]{{"/api/v1/console/usage?to=" + future, "to"}, {"/api/v1/console/usage?from=" + future, "from"},
                {"/api/v1/console/usage?from=-999999999-01-01T00:00:00Z", "from"}, {"/api/v1/console/requests?since=" + future, "since"},
                {"/api/v1/console/usage?grain=hour&to=10000-01-01T00:00:01Z", "to"}}) {
            HttpResponse<String> r = h.get(c[0], "authorization", "Bearer " + key.secret());
            assertThat(r.statusCode()).as(c[0] + ": " + r.body()).isEqualTo(400);
            assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).as(c[0]).isEqualTo(c[1]);
        }
        assertThat(h.get("/api/v1/console/usage?from=9999-12-30&to=9999-12-31", "authorization", "Bearer " + key.secret())
                .statusCode()).isEqualTo(200);
    }

    @Test
    void pagesAreServedFromTheJarWithAPolicyThatAllowsOnlyTheGateway() {
        HttpResponse<String> page = h.get("/console/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Model Gateway console</title>").doesNotContain("http://", "https://");
        assertThat(page.headers().firstValue("content-security-policy").orElseThrow()).startsWith("default-src 'self'");
        assertThat(h.get("/console/vendor/uPlot.iife.min.js").statusCode()).isEqualTo(200);
    }

    private static long sum(JsonNode usage, String group, String field) {
        long n = 0;
        for (JsonNode row : usage.path("data")) if (row.path("group").asText().equals(group)) n += row.path(field).asLong();
        return n;
    }
}
