package dev.modelgateway.e2e.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.client.OpenAIClient;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.PerClassGateway;
import dev.modelgateway.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's read API and pages through the gateway: what the master key and a team's key each see. */
@ExtendWith(PerClassGateway.class)
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
    static JsonNode await(String key, String path, Predicate<JsonNode> done) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        JsonNode last = null;
        while (Instant.now().isBefore(deadline)) {
            last = get(key, path);
            if (done.test(last)) return last;
            Thread.sleep(250);
        }
        throw new AssertionError("never satisfied: " + path + " → " + last);
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

        HttpResponse<String> csv = h.get("/api/v1/console/usage.csv?grain=hour&dimension=model", "authorization", "Bearer " + GatewayHarness.KEY);
        assertThat(csv.headers().firstValue("content-type")).hasValue("text/csv; charset=utf-8");
        assertThat(csv.body()).startsWith("bucket,group,requests,").contains("," + MODEL + ",3,0,");
    }

    @Test
    void badParametersAre400sNamingTheField() {
        for (String[] c : new String[][]{{"/api/v1/console/usage?grain=week", "grain"}, {"/api/v1/console/usage?from=yesterday", "from"},
                {"/api/v1/console/usage?grain=hour&from=2020-01-01&to=2026-01-01", "from"}, {"/api/v1/console/requests?limit=0", "limit"},
                {"/api/v1/console/requests?before=x", "before"}, {"/api/v1/console/requests?status=maybe", "status"}}) {
            HttpResponse<String> r = h.get(c[0], "authorization", "Bearer " + GatewayHarness.KEY);
            assertThat(r.statusCode()).as(c[0]).isEqualTo(400);
            assertThat(Json.parseOrNull(r.body()).at("/error/param").asText()).as(c[0]).isEqualTo(c[1]);
        }
        assertThat(h.get("/api/v1/console/me").statusCode()).isEqualTo(401);
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
