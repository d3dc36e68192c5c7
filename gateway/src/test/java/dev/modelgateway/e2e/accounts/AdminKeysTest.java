package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.TestClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scoped admin keys (docs/identity/admin-keys.md): what a body may ask for, no escalation, a team admin's reach over
 * keys, teams and usage, the audit log naming the key, rotation with a grace on the injected clock, and each refusal
 * of authentication saying why.
 */
@E2e
class AdminKeysTest {
    static final TestClock CLOCK = new TestClock(Instant.parse("2026-06-01T00:00:00Z"));
    static GatewayHarness h;
    static String teamX;
    static String teamY;
    static String teamAdmin;
    static String teamAdminId;

    @BeforeAll
    static void start() {
        h = GatewayHarness.builder().accountsClock(CLOCK).start();
        teamX = master("POST", "/api/v1/admin/teams", "{\"name\":\"x\",\"rpm\":100,\"tpm\":100000,\"budget_usd\":\"50\"}").path("id").asText();
        teamY = master("POST", "/api/v1/admin/teams", "{\"name\":\"y\"}").path("id").asText();
        JsonNode created = master("POST", "/api/v1/admin/admin-keys", "{\"name\":\"ci team x\",\"role\":\"team_admin\",\"scope\":\"team:" + teamX + "\"}");
        teamAdmin = created.path("key").asText();
        teamAdminId = created.path("id").asText();
    }

    @AfterAll
    static void stop() {
        if (h != null) h.close();
    }

    static JsonNode master(String method, String path, String body) {
        HttpResponse<String> r = call(GatewayHarness.KEY, method, path, body);
        assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isBetween(200, 299);
        return Json.parseOrNull(r.body());
    }

    static HttpResponse<String> call(String key, String method, String path, String body) {
        return h.send(method, path, body, "authorization", "Bearer " + key);
    }

    static void refused(HttpResponse<String> r, int status, String code, String param) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        JsonNode error = Json.parseOrNull(r.body()).path("error");
        if (code != null) assertThat(error.path("code").asText()).as(r.body()).isEqualTo(code);
        if (param != null) assertThat(error.path("param").asText()).as(r.body()).isEqualTo(param);
    }

    @Test
    void theSecretIsShownOnceAndRecognisable() {
        JsonNode created = master("POST", "/api/v1/admin/admin-keys", "{\"name\":\"reports\",\"role\":\"viewer\"}");
        assertThat(created.path("key").asText()).startsWith("pka-");
        assertThat(created.path("id").asText()).startsWith("adk_");
        assertThat(created.path("role").asText()).isEqualTo("viewer");
        assertThat(created.path("scope").asText()).isEqualTo("org");
        assertThat(created.path("permissions").toString()).contains("keys:read", "usage:read").doesNotContain("keys:write");
        JsonNode listed = master("GET", "/api/v1/admin/admin-keys/" + created.path("id").asText(), null);
        assertThat(listed.has("key")).isFalse();
        assertThat(listed.path("prefix").asText()).startsWith("pka-");
        assertThat(master("GET", "/api/v1/admin/admin-keys", null).toString()).doesNotContain(created.path("key").asText());
    }

    @Test
    void aBadBodyIsA400NamingTheField() {
        refused(call(GatewayHarness.KEY, "POST", "/api/v1/admin/admin-keys", "{\"name\":\"a\",\"permissions\":[\"keys:wrte\"]}"),
                400, null, "permissions");
        refused(call(GatewayHarness.KEY, "POST", "/api/v1/admin/admin-keys", "{\"name\":\"a\",\"permissions\":[\"config:read\"],\"scope\":\"team:" + teamX + "\"}"),
                400, null, "permissions");
        refused(call(GatewayHarness.KEY, "POST", "/api/v1/admin/admin-keys", "{\"name\":\"a\",\"permissions\":[\"keys:read\"],\"scope\":\"team:nope\"}"),
                400, "team_not_found", "scope");
        refused(call(GatewayHarness.KEY, "POST", "/api/v1/admin/admin-keys", "{\"name\":\"a\",\"role\":\"member\"}"), 400, null, "role");
        refused(call(GatewayHarness.KEY, "POST", "/api/v1/admin/admin-keys", "{\"name\":\"a\",\"role\":\"viewer\",\"permissions\":[\"keys:read\"]}"),
                400, null, "permissions");
        refused(call(GatewayHarness.KEY, "POST", "/api/v1/admin/admin-keys", "{\"name\":\"a\",\"role\":\"viewer\",\"scope\":\"everything\"}"),
                400, null, "scope");
        String id = master("POST", "/api/v1/admin/admin-keys", "{\"name\":\"a\",\"role\":\"auditor\"}").path("id").asText();
        refused(call(GatewayHarness.KEY, "POST", "/api/v1/admin/admin-keys/" + id + "/rotate", "{\"grace_seconds\":1}"), 400, null, "grace_seconds");
        refused(call(GatewayHarness.KEY, "PATCH", "/api/v1/admin/admin-keys/" + id, "{\"scope\":\"org\"}"), 400, null, "scope");
    }

    @Test
    void aCreatorGrantsOnlyWhatItHolds() {
        String minter = master("POST", "/api/v1/admin/admin-keys", "{\"name\":\"minter\",\"permissions\":[\"admin_keys:write\",\"keys:read\"]}")
                .path("key").asText();
        refused(call(minter, "POST", "/api/v1/admin/admin-keys", "{\"name\":\"b\",\"permissions\":[\"keys:write\"]}"), 403, "permission_denied", "permissions");
        refused(call(minter, "POST", "/api/v1/admin/admin-keys", "{\"name\":\"b\",\"role\":\"org_admin\"}"), 403, "permission_denied", "permissions");
        // nor takes over a stronger key by rotating, re-enabling or deleting it
        String strong = master("POST", "/api/v1/admin/admin-keys", "{\"name\":\"strong\",\"role\":\"org_admin\"}").path("id").asText();
        refused(call(minter, "POST", "/api/v1/admin/admin-keys/" + strong + "/rotate", "{}"), 403, "permission_denied", "permissions");
        refused(call(minter, "PATCH", "/api/v1/admin/admin-keys/" + strong, "{\"disabled\":false}"), 403, "permission_denied", "permissions");
        refused(call(minter, "DELETE", "/api/v1/admin/admin-keys/" + strong, null), 403, "permission_denied", "permissions");
        HttpResponse<String> narrower = call(minter, "POST", "/api/v1/admin/admin-keys",
                "{\"name\":\"b\",\"permissions\":[\"keys:read\"],\"scope\":\"team:" + teamX + "\"}");
        assertThat(narrower.statusCode()).as(narrower.body()).isEqualTo(201);
        JsonNode audit = master("GET", "/api/v1/admin/audit?target_id=" + Json.parseOrNull(narrower.body()).path("id").asText(), null);
        assertThat(audit.at("/data/0/action").asText()).isEqualTo("admin_key.create");
        assertThat(audit.at("/data/0/actor_kind").asText()).isEqualTo("admin_key");
        assertThat(audit.at("/data/0/actor_name").asText()).isEqualTo("minter");
    }

    @Test
    void aTeamAdminKeepsToItsTeam() {
        String other = master("POST", "/api/v1/admin/keys", "{\"name\":\"theirs\",\"team_id\":\"" + teamY + "\"}").path("id").asText();
        String ours = master("POST", "/api/v1/admin/keys", "{\"name\":\"ours\",\"team_id\":\"" + teamX + "\"}").path("id").asText();
        refused(call(teamAdmin, "GET", "/api/v1/admin/keys/" + other, null), 403, "outside_scope", null);
        refused(call(teamAdmin, "PATCH", "/api/v1/admin/keys/" + other, "{\"name\":\"mine now\"}"), 403, "outside_scope", null);
        refused(call(teamAdmin, "DELETE", "/api/v1/admin/keys/" + other, null), 403, "outside_scope", null);
        refused(call(teamAdmin, "POST", "/api/v1/admin/keys/" + other + "/rotate", "{}"), 403, "outside_scope", null);
        assertThat(master("GET", "/api/v1/admin/keys/" + other, null).path("name").asText()).isEqualTo("theirs");

        JsonNode listed = Json.parseOrNull(call(teamAdmin, "GET", "/api/v1/admin/keys", null).body());
        assertThat(listed.path("data")).isNotEmpty().allSatisfy(k -> assertThat(k.path("team_id").asText()).isEqualTo(teamX));
        assertThat(listed.toString()).contains(ours).doesNotContain(other);
        JsonNode teams = Json.parseOrNull(call(teamAdmin, "GET", "/api/v1/admin/teams", null).body());
        assertThat(teams.path("data")).hasSize(1);
        refused(call(teamAdmin, "GET", "/api/v1/admin/teams/" + teamY, null), 403, "outside_scope", null);
        JsonNode limits = Json.parseOrNull(call(teamAdmin, "GET", "/api/v1/admin/rate-limits", null).body());
        assertThat(limits.toString()).contains(ours).doesNotContain(other).doesNotContain(teamY);

        // its own team's limits are the org admin's to set
        refused(call(teamAdmin, "PATCH", "/api/v1/admin/teams/" + teamX, "{\"rpm\":1000000}"), 403, "permission_denied", null);
        // its keys stay within them, and within the team
        refused(call(teamAdmin, "POST", "/api/v1/admin/keys", "{\"name\":\"greedy\",\"rpm\":1000}"), 400, "exceeds_team_limit", "rpm");
        refused(call(teamAdmin, "PATCH", "/api/v1/admin/keys/" + ours, "{\"budget_usd\":\"51\"}"), 400, "exceeds_team_limit", "budget_usd");
        refused(call(teamAdmin, "PATCH", "/api/v1/admin/keys/" + ours, "{\"team_id\":\"" + teamY + "\"}"), 403, "outside_scope", null);
        refused(call(teamAdmin, "POST", "/api/v1/admin/keys", "{\"name\":\"elsewhere\",\"team_id\":\"" + teamY + "\"}"), 403, "outside_scope", null);

        // a key made without a team lands in its one team
        HttpResponse<String> made = call(teamAdmin, "POST", "/api/v1/admin/keys", "{\"name\":\"made by ci\",\"rpm\":50}");
        assertThat(made.statusCode()).as(made.body()).isEqualTo(201);
        JsonNode key = Json.parseOrNull(made.body());
        assertThat(key.path("team_id").asText()).isEqualTo(teamX);
        assertThat(key.has("owner_user_id")).isTrue();

        // the audit log names the admin key, its role and where the call came from
        JsonNode entry = master("GET", "/api/v1/admin/audit?target_id=" + key.path("id").asText(), null).at("/data/0");
        assertThat(entry.path("action").asText()).isEqualTo("key.create");
        assertThat(entry.path("actor_kind").asText()).isEqualTo("admin_key");
        assertThat(entry.path("actor").asText()).isEqualTo(teamAdminId);
        assertThat(entry.path("actor_name").asText()).isEqualTo("ci team x");
        assertThat(entry.path("actor_role").asText()).isEqualTo("team_admin(team:" + teamX + ")");
        assertThat(entry.path("source").asText()).isEqualTo("127.0.0.1");
    }

    @Test
    void aTeamAdminSeesItsTeamsUsageOnly() {
        JsonNode ours = master("POST", "/api/v1/admin/keys", "{\"name\":\"caller x\",\"team_id\":\"" + teamX + "\"}");
        JsonNode theirs = master("POST", "/api/v1/admin/keys", "{\"name\":\"caller y\",\"team_id\":\"" + teamY + "\"}");
        for (JsonNode k : List.of(ours, theirs)) {
            h.openai(k.path("key").asText()).chat().completions().create(ChatCompletionCreateParams.builder()
                    .model("platform/vendorB-5.5").addUserMessage("hi").build());
        }
        // the ledger's rows are stamped by the accounts' clock
        String range = "from=2000-01-01&to=2100-01-01&group_by=key";
        Eventually.until("both calls are in the ledger", Duration.ofSeconds(10), () -> {
            String all = master("GET", "/api/v1/admin/usage?" + range, null).toString();
            return all.contains(ours.path("id").asText()) && all.contains(theirs.path("id").asText());
        });
        String seen = Json.parseOrNull(call(teamAdmin, "GET", "/api/v1/admin/usage?" + range, null).body()).toString();
        assertThat(seen).contains(ours.path("id").asText()).doesNotContain(theirs.path("id").asText());
    }

    @Test
    void rotationKeepsTheOldSecretThroughTheGraceAndNotAfter() {
        JsonNode created = master("POST", "/api/v1/admin/admin-keys", "{\"name\":\"rotating\",\"permissions\":[\"keys:read\"]}");
        String id = created.path("id").asText();
        String old = created.path("key").asText();
        assertThat(call(old, "GET", "/api/v1/admin/keys", null).statusCode()).isEqualTo(200);
        JsonNode rotated = master("POST", "/api/v1/admin/admin-keys/" + id + "/rotate", "{\"grace_seconds\":60}");
        String fresh = rotated.path("key").asText();
        assertThat(fresh).startsWith("pka-").isNotEqualTo(old);
        // no request lost: both work through the grace
        for (int i = 0; i < 5; i++) {
            assertThat(call(old, "GET", "/api/v1/admin/keys", null).statusCode()).isEqualTo(200);
            assertThat(call(fresh, "GET", "/api/v1/admin/keys", null).statusCode()).isEqualTo(200);
            CLOCK.advance(Duration.ofSeconds(10));
        }
        CLOCK.advance(Duration.ofSeconds(10));
        refused(call(old, "GET", "/api/v1/admin/keys", null), 401, "admin_key_rotated", null);
        assertThat(call(fresh, "GET", "/api/v1/admin/keys", null).statusCode()).isEqualTo(200);
    }

    @Test
    void disabledExpiredAndUnknownKeysSayWhy() {
        JsonNode created = master("POST", "/api/v1/admin/admin-keys", "{\"name\":\"short\",\"permissions\":[\"keys:read\"],\"expires_at\":\""
                + CLOCK.instant().plus(Duration.ofHours(1)) + "\"}");
        String id = created.path("id").asText();
        String secret = created.path("key").asText();
        assertThat(call(secret, "GET", "/api/v1/admin/keys", null).statusCode()).isEqualTo(200);
        master("PATCH", "/api/v1/admin/admin-keys/" + id, "{\"disabled\":true}");
        refused(call(secret, "GET", "/api/v1/admin/keys", null), 401, "admin_key_disabled", null);
        master("PATCH", "/api/v1/admin/admin-keys/" + id, "{\"disabled\":false}");
        assertThat(call(secret, "GET", "/api/v1/admin/keys", null).statusCode()).isEqualTo(200);
        CLOCK.advance(Duration.ofHours(1));
        refused(call(secret, "GET", "/api/v1/admin/keys", null), 401, "admin_key_expired", null);
        refused(call("pka-not-a-key", "GET", "/api/v1/admin/keys", null), 401, "invalid_admin_key", null);
        master("DELETE", "/api/v1/admin/admin-keys/" + id, null);
        refused(call(secret, "GET", "/api/v1/admin/keys", null), 401, "invalid_admin_key", null);
    }

    @Test
    void lastUsedIsRecordedOffThePath() {
        JsonNode created = master("POST", "/api/v1/admin/admin-keys", "{\"name\":\"used\",\"permissions\":[\"keys:read\"]}");
        String id = created.path("id").asText();
        assertThat(created.path("last_used_at").isNull()).isTrue();
        call(created.path("key").asText(), "GET", "/api/v1/admin/keys", null);
        Eventually.until("last_used_at is written", Duration.ofSeconds(10),
                () -> !master("GET", "/api/v1/admin/admin-keys/" + id, null).path("last_used_at").isNull());
    }

    @Test
    void aUseOfTheMasterKeyIsAudited() {
        master("GET", "/api/v1/admin/teams/" + teamY, null);
        Eventually.until("the use is audited", Duration.ofSeconds(10), () -> {
            JsonNode entries = master("GET", "/api/v1/admin/audit?include=master_key.use&target_id=GET%20/api/v1/admin/teams/:id", null).path("data");
            return entries.size() > 0 && entries.get(0).path("action").asText().equals("master_key.use")
                    && entries.get(0).path("actor_kind").asText().equals("master")
                    && entries.get(0).path("source").asText().equals("127.0.0.1");
        });
    }
}
