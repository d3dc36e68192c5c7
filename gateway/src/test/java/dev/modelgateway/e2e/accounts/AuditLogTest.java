package dev.modelgateway.e2e.accounts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelgateway.accounts.AccountsConfig;
import dev.modelgateway.cli.KeysCommand;
import dev.modelgateway.catalogue.Catalogue;
import dev.modelgateway.e2e.AdminApi;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.json.Json;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Every admin change, through the API or the CLI, is in the audit log with its actor and before/after. */
@E2e
class AuditLogTest {
    GatewayHarness g;

    @BeforeEach
    void start() {
        g = GatewayHarness.start();
    }

    @AfterEach
    void stop() {
        g.close();
    }

    @Test
    void apiAndCliChangesAreLoggedWithActorBeforeAndAfter() {
        AdminApi admin = new AdminApi(g);
        String team = TeamsAcrossInstancesTest.createTeam(admin, "{\"name\":\"ops\",\"budget_usd\":5,\"budget_period\":\"week\"}");
        AdminApi.CreatedKey key = admin.create("{\"name\":\"svc\",\"team_id\":\"" + team + "\"}");
        admin.patch(key.id(), "{\"rpm\":30,\"disabled\":true}");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = KeysCommand.run(new String[]{"keys", "enable", key.id()}, new AccountsConfig(g.databaseUrl, null, null),
                Catalogue.loadDefault(Map.of()), new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isZero();

        JsonNode log = admin.get("/api/v1/admin/audit?target_id=" + key.id());
        List<String> actions = new ArrayList<>();
        log.path("data").forEach(e -> actions.add(e.path("actor").asText() + " " + e.path("action").asText()));
        assertThat(actions).startsWith("cli:" + System.getProperty("user.name") + " key.update", "master key.update", "master key.create");
        // each names its actor as a person reads it: the host login for the CLI, the break-glass master key for the API
        JsonNode byCli = log.path("data").get(0);
        assertThat(byCli.path("actor_kind").asText()).isEqualTo("cli");
        assertThat(byCli.path("actor_name").asText()).isEqualTo(System.getProperty("user.name"));
        assertThat(byCli.path("actor_role").asText()).isEqualTo("host_shell");
        JsonNode byMaster = log.path("data").get(1);
        assertThat(byMaster.path("actor_kind").asText()).isEqualTo("master");
        assertThat(byMaster.path("actor_role").asText()).isEqualTo("break_glass");
        assertThat(byMaster.path("source").asText()).isEqualTo("127.0.0.1");
        JsonNode patched = log.path("data").get(1);
        assertThat(patched.path("before").path("rpm").isNull()).isTrue();
        assertThat(patched.path("before").path("disabled").asBoolean()).isFalse();
        assertThat(patched.path("after").path("rpm").asLong()).isEqualTo(30);
        assertThat(patched.path("after").path("disabled").asBoolean()).isTrue();
        assertThat(log.toString()).as("never a secret").doesNotContain(key.secret());
        JsonNode created = log.path("data").get(2);
        assertThat(created.path("before").isNull()).isTrue();
        assertThat(created.path("after").path("team_id").asText()).isEqualTo(team);

        JsonNode teamLog = admin.get("/api/v1/admin/audit?target_id=" + team);
        assertThat(teamLog.path("data").get(0).path("action").asText()).isEqualTo("team.create");
        assertThat(teamLog.path("data").get(0).path("after").path("budget_period").asText()).isEqualTo("week");

        out.reset();
        KeysCommand.run(new String[]{"keys", "audit", "--limit", "50"}, new AccountsConfig(g.databaseUrl, null, null),
                Catalogue.loadDefault(Map.of()), new PrintStream(out, true, StandardCharsets.UTF_8));
        // each admin call made with the master key (break-glass) is itself an entry, between the changes
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).anySatisfy(l -> assertThat(l).contains("master_key.use", "POST /api/v1/admin/keys"));
        assertThat(lines.stream().filter(l -> !l.contains("master_key.use")).toList()).first().asString()
                .contains("key.update").contains(key.id());
        assertThat(admin.call("GET", "/api/v1/admin/audit?limit=0", null).statusCode()).isEqualTo(400);
        assertThat(Json.parseOrNull(g.get("/api/v1/admin/audit", "authorization", "Bearer " + key.secret()).body())
                .path("error").path("code").asText()).isEqualTo("permission_denied");
    }
}
