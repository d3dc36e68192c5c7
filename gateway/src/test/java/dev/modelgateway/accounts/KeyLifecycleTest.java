package dev.modelgateway.accounts;

import dev.modelgateway.accounts.keys.KeyToken;
import dev.modelgateway.accounts.keys.ModelGlob;
import dev.modelgateway.accounts.keys.ModelLimit;
import dev.modelgateway.cli.KeysCommand;
import dev.modelgateway.error.GatewayException;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.modelgateway.accounts.Fixtures.await;
import static dev.modelgateway.accounts.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;

/** Keys through the admin HTTP API and the CLI, on a SQLite file. */
class KeyLifecycleTest {
    private static final String MASTER = "master-secret-for-tests";

    @TempDir
    Path dir;
    private Vertx vertx;
    private AccountsConfig config;
    private Accounts accounts;
    private Fixtures.Server http;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        config = new AccountsConfig("jdbc:sqlite:" + dir.resolve("data/gateway.db"), null, MASTER);
        accounts = await(Accounts.open(vertx, config, Fixtures.PRICES));
        http = Fixtures.Server.start(vertx, accounts);
    }

    @AfterEach
    void stop() {
        await(accounts.close());
        await(vertx.close());
    }

    @Test
    void keyLifecycleOverHttp() {
        var created = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "team-a")
                .put("models", new JsonArray().add("platform/vendorA-*")).put("rpm", 60).put("tpm", 100000)
                .put("budget_usd", "12.50").put("expires_at", "2099-01-01T00:00:00Z"));
        assertThat(created.status()).isEqualTo(201);
        String secret = created.json().getString("key");
        String id = created.json().getString("id");
        assertThat(secret).matches("pk-[A-Za-z0-9_-]{40}");
        assertThat(created.json().getString("prefix")).isEqualTo(secret.substring(0, 9));
        assertThat(created.json().getJsonArray("models").getList()).containsExactly("platform/vendorA-*");
        assertThat(created.json().getString("budget_usd")).isEqualTo("12.50");
        assertThat(created.json().getString("expires_at")).isEqualTo("2099-01-01T00:00:00Z");

        ApiKey key = await(accounts.authenticate(secret));
        assertThat(key.id()).isEqualTo(id);
        assertThat(key.rpm()).isEqualTo(60);
        assertThat(key.master()).isFalse();

        var listed = http.get("/api/v1/admin/keys", MASTER);
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json().getJsonArray("data")).hasSize(1);
        JsonObject item = listed.json().getJsonArray("data").getJsonObject(0);
        assertThat(item.getString("id")).isEqualTo(id);
        assertThat(item.containsKey("key")).as("the secret is shown only at creation").isFalse();

        var disabled = http.call("PATCH", "/api/v1/admin/keys/" + id, MASTER,
                new JsonObject().put("disabled", true).put("rpm", 5).putNull("tpm"));
        assertThat(disabled.status()).isEqualTo(200);
        assertThat(disabled.json().getBoolean("disabled")).isTrue();
        assertThat(disabled.json().getLong("rpm")).isEqualTo(5);
        assertThat(disabled.json().getValue("tpm")).isNull();
        assertThat(disabled.json().getString("budget_usd")).as("fields not sent stay").isEqualTo("12.50");
        GatewayException refused = (GatewayException) failure(accounts.authenticate(secret));
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.getMessage()).contains("disabled");
        assertThat(http.get("/api/v1/usage", secret).error().getString("message")).contains("disabled");

        assertThat(http.call("PATCH", "/api/v1/admin/keys/" + id, MASTER, new JsonObject().put("disabled", false)).status())
                .isEqualTo(200);
        assertThat(await(accounts.authenticate(secret)).rpm()).isEqualTo(5);

        var deleted = http.call("DELETE", "/api/v1/admin/keys/" + id, MASTER, null);
        assertThat(deleted.json().getBoolean("deleted")).isTrue();
        assertThat(http.get("/api/v1/admin/keys/" + id, MASTER).status()).isEqualTo(404);
        GatewayException unknown = (GatewayException) failure(accounts.authenticate(secret));
        assertThat(unknown.status()).isEqualTo(401);
        assertThat(unknown.code()).isEqualTo("invalid_api_key");
    }

    @Test
    void modelLimitsAreStoredInOrderAndReplacedOrClearedByPatch() {
        JsonObject limits = new JsonObject()
                .put("platform/vendorA-opus-*", new JsonObject().put("rpm", 5).put("tpm", 20000))
                .put("platform/vendorA-*", new JsonObject().putNull("rpm").put("tpm", 100000));
        var created = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "m").put("model_limits", limits));
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().getJsonObject("model_limits").fieldNames())
                .containsExactly("platform/vendorA-opus-*", "platform/vendorA-*");
        String id = created.json().getString("id");
        ApiKey key = await(accounts.authenticate(created.json().getString("key")));
        assertThat(key.modelLimit("platform/vendorA-opus-4.8")).isEqualTo(new ModelLimit("platform/vendorA-opus-*", 5L, 20000L));
        assertThat(key.modelLimit("platform/vendorA-sonnet-5")).isEqualTo(new ModelLimit("platform/vendorA-*", null, 100000L));
        assertThat(key.modelLimit("platform/vendorB-5.5")).isNull();

        var fetched = http.get("/api/v1/admin/keys/" + id, MASTER);
        assertThat(fetched.json().getJsonObject("model_limits")).isEqualTo(limits);
        var cleared = http.call("PATCH", "/api/v1/admin/keys/" + id, MASTER, new JsonObject().putNull("model_limits"));
        assertThat(cleared.json().getJsonObject("model_limits").isEmpty()).isTrue();
        assertThat(http.get("/api/v1/admin/keys/" + id, MASTER).json().getJsonObject("model_limits").isEmpty()).isTrue();
    }

    @Test
    void expiredKeyIsRefusedSayingSo() {
        var created = http.call("POST", "/api/v1/admin/keys", MASTER,
                new JsonObject().put("name", "old").put("expires_at", 1_000_000_000L));
        GatewayException e = (GatewayException) failure(accounts.authenticate(created.json().getString("key")));
        assertThat(e.status()).isEqualTo(401);
        assertThat(e.code()).isEqualTo("api_key_expired");
        assertThat(e.getMessage()).contains("expired at 2001-09-09T01:46:40Z");
    }

    @Test
    void adminRoutesNeedTheMasterKeyAndValidInput() {
        String secret = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "plain"))
                .json().getString("key");

        var notAdmin = http.get("/api/v1/admin/keys", secret);
        assertThat(notAdmin.status()).isEqualTo(403);
        assertThat(notAdmin.error().getString("type")).isEqualTo("permission_error");
        assertThat(notAdmin.error().getString("code")).isEqualTo("permission_denied");
        assertThat(http.get("/api/v1/admin/keys", null).status()).isEqualTo(401);
        assertThat(http.get("/api/v1/admin/keys", "pk-wrong").error().getString("code")).isEqualTo("invalid_api_key");

        var badRpm = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x").put("rpm", -3));
        assertThat(badRpm.status()).isEqualTo(400);
        assertThat(badRpm.error().getString("param")).isEqualTo("rpm");
        assertThat(badRpm.error().getString("type")).isEqualTo("invalid_request_error");
        var noName = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("rpm", 3));
        assertThat(noName.error().getString("param")).isEqualTo("name");
        var badBudget = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x").put("budget_usd", "lots"));
        assertThat(badBudget.error().getString("param")).isEqualTo("budget_usd");
        var badExpiry = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x").put("expires_at", "soon"));
        assertThat(badExpiry.error().getString("param")).isEqualTo("expires_at");
        // valid instants whose epoch milliseconds overflow: once a 500 with a stack trace
        String farFuture = "+999999999-12-31T23:59:59Z";
        for (Object expiry : List.of(farFuture, "-999999999-01-01T00:00:00Z", Long.MAX_VALUE, 253402300800L)) {
            var far = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x").put("expires_at", expiry));
            assertThat(far.status()).as(String.valueOf(expiry)).isEqualTo(400);
            assertThat(far.error().getString("param")).isEqualTo("expires_at");
        }
        String patched = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "far")).json().getString("id");
        var farPatch = http.call("PATCH", "/api/v1/admin/keys/" + patched, MASTER, new JsonObject().put("expires_at", farFuture));
        assertThat(farPatch.status()).isEqualTo(400);
        assertThat(farPatch.error().getString("param")).isEqualTo("expires_at");
        assertThat(http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x")
                .put("expires_at", "9999-12-31T23:59:59Z")).status()).isEqualTo(201);
        var farReprice = http.call("POST", "/api/v1/admin/reprice", MASTER, new JsonObject().put("from", "2026-01-01").put("to", farFuture));
        assertThat(farReprice.status()).isEqualTo(400);
        assertThat(farReprice.error().getString("param")).isEqualTo("to");
        var farUsage = http.get("/api/v1/admin/usage?to=%2B999999999-12-31T23:59:59Z", MASTER);
        assertThat(farUsage.status()).isEqualTo(400);
        assertThat(farUsage.error().getString("param")).isEqualTo("to");
        // a typo must not create a key without the budget its creator meant
        var typo = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x").put("budget", "5"));
        assertThat(typo.status()).isEqualTo(400);
        assertThat(typo.error().getString("param")).isEqualTo("budget");
        assertThat(typo.error().getString("message")).contains("budget_usd");
        var badModels = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x").put("models", 7));
        assertThat(badModels.error().getString("param")).isEqualTo("models");
        // a glob is matched on the event loop at every call: its length is bounded
        String longGlob = "*".repeat(ModelGlob.MAX_LENGTH) + "Z";
        var longModels = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x")
                .put("models", new JsonArray().add("platform/vendorA-*").add(longGlob)));
        assertThat(longModels.status()).isEqualTo(400);
        assertThat(longModels.error().getString("param")).isEqualTo("models");
        assertThat(longModels.error().getString("message")).contains("at most " + ModelGlob.MAX_LENGTH);
        String id = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "short globs")).json().getString("id");
        var longLimit = http.call("PATCH", "/api/v1/admin/keys/" + id, MASTER, new JsonObject()
                .put("model_limits", new JsonObject().put(longGlob, new JsonObject().put("rpm", 3))));
        assertThat(longLimit.status()).isEqualTo(400);
        assertThat(longLimit.error().getString("param")).isEqualTo("model_limits");
        var longTeam = http.call("POST", "/api/v1/admin/teams", MASTER, new JsonObject().put("name", "t")
                .put("models", new JsonArray().add(longGlob)));
        assertThat(longTeam.status()).isEqualTo(400);
        assertThat(longTeam.error().getString("param")).isEqualTo("models");
        var badModelLimit = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x")
                .put("model_limits", new JsonObject().put("platform/vendorA-*", new JsonObject().put("rpm", 0))));
        assertThat(badModelLimit.error().getString("param")).isEqualTo("model_limits.platform/vendorA-*.rpm");
        var emptyModelLimit = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x")
                .put("model_limits", new JsonObject().put("platform/vendorA-*", new JsonObject().put("rps", 3))));
        assertThat(emptyModelLimit.error().getString("param")).isEqualTo("model_limits.platform/vendorA-*");
        var badUsage = http.get("/api/v1/admin/usage?group_by=week", MASTER);
        assertThat(badUsage.status()).isEqualTo(400);
        assertThat(badUsage.error().getString("param")).isEqualTo("group_by");
        assertThat(http.get("/api/v1/admin/usage?from=yesterday", MASTER).error().getString("param")).isEqualTo("from");
        assertThat(http.get("/api/v1/admin/keys/key_missing", MASTER).status()).isEqualTo(404);
    }

    @Test
    void onlyHashesAreStored() throws Exception {
        List<String> secrets = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            secrets.add(http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "k" + i))
                    .json().getString("key"));
        }
        StringBuilder everything = new StringBuilder();
        try (Connection c = DriverManager.getConnection(config.databaseUrl()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM api_keys")) {
            while (rs.next()) {
                for (int col = 1; col <= rs.getMetaData().getColumnCount(); col++) everything.append(rs.getString(col)).append('|');
            }
        }
        for (String secret : secrets) {
            assertThat(everything).doesNotContain(secret).doesNotContain(secret.substring(3));
            assertThat(everything).contains(KeyToken.hash(secret));
        }
        await(accounts.close());
        accounts = await(Accounts.open(vertx, config, Fixtures.PRICES)); // checkpointed WAL: check the files too
        try (var files = Files.list(dir.resolve("data"))) {
            for (Path file : files.toList()) {
                String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                for (String secret : secrets) assertThat(bytes).doesNotContain(secret.substring(3));
            }
        }
    }

    @Test
    void sqliteRunsInWalMode() throws Exception {
        try (Connection c = DriverManager.getConnection(config.databaseUrl()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("PRAGMA journal_mode")) {
            assertThat(rs.getString(1)).isEqualTo("wal");
        }
    }

    @Test
    void keyLifecycleOverTheCli() {
        var create = cli("keys", "create", "--name", "batch-job", "--models", "platform/vendorA-small,platform/other",
                "--rpm", "10", "--tpm", "5000", "--budget", "3.5", "--expires", "2099-06-01T00:00:00Z",
                "--model-limits", "{\"platform/vendorA-*\": {\"rpm\": 2}}", "--max-concurrent", "12");
        assertThat(create.code()).isZero();
        Matcher m = Pattern.compile("id: +(key_\\w+)[\\s\\S]*key: +(pk-\\S+)").matcher(create.out());
        assertThat(m.find()).as(create.out()).isTrue();
        String id = m.group(1);
        String secret = m.group(2);

        // The running server sees the CLI's key at once (it was never cached).
        ApiKey key = await(accounts.authenticate(secret));
        assertThat(key.allowedModels()).containsExactly("platform/vendorA-small", "platform/other");
        assertThat(key.tpm()).isEqualTo(5000);
        assertThat(key.budgetUsd()).isEqualByComparingTo("3.5");
        assertThat(key.modelLimits()).containsExactly(new ModelLimit("platform/vendorA-*", 2L, null));
        assertThat(key.maxConcurrent()).isEqualTo(12);

        var list = cli("keys", "list");
        assertThat(list.code()).isZero();
        assertThat(list.out()).contains(id, "batch-job", secret.substring(0, 9), "active", " 12 ").doesNotContain(secret)
                .contains("models platform/vendorA-*: rpm 2, tpm -");

        assertThat(cli("keys", "disable", id).code()).isZero();
        assertThat(cli("keys", "list").out()).contains("disabled");
        assertThat(cli("keys", "delete", id).code()).isZero();
        assertThat(cli("keys", "list").out()).doesNotContain(id);
        assertThat(cli("keys", "delete", id).code()).isEqualTo(KeysCommand.FAILED);

        assertThat(cli("keys", "audit", "--target", id).out().lines().toList()).hasSize(3)
                .anyMatch(l -> l.contains("key.delete")).anyMatch(l -> l.contains("key.create"));

        var team = cli("keys", "teams", "create", "--name", "ops", "--rpm", "30", "--budget-period", "week");
        Matcher t = Pattern.compile("id: +(team_\\w+)").matcher(team.out());
        assertThat(t.find()).as(team.out()).isTrue();
        String teamId = t.group(1);
        assertThat(cli("keys", "create", "--name", "in-ops", "--team", teamId).code()).isZero();
        assertThat(cli("keys", "create", "--name", "nowhere", "--team", "team_missing").out()).contains("no team with id 'team_missing'");
        assertThat(cli("keys", "teams", "list").out()).contains(teamId, "ops", "week");
        var refused = cli("keys", "teams", "delete", teamId);
        assertThat(refused.code()).isEqualTo(KeysCommand.FAILED);
        assertThat(refused.out()).contains("still has keys");
        assertThat(cli("keys", "teams", "delete", "team_missing").code()).isEqualTo(KeysCommand.FAILED);

        var repriced = cli("keys", "reprice", "--from", "2025-01-01", "--to", "2025-02-01");
        assertThat(repriced.code()).isZero();
        assertThat(repriced.out()).contains("\"object\" : \"reprice\"", "\"rows\" : 0");
        assertThat(cli("keys", "alerts").out()).contains("thresholds: [50, 80, 100]");

        var bad = cli("keys", "create", "--name", "x", "--rpm", "ten");
        assertThat(bad.code()).isEqualTo(KeysCommand.USAGE);
        assertThat(bad.out()).contains("rpm");
        assertThat(cli("keys", "frobnicate").code()).isEqualTo(KeysCommand.USAGE);
    }

    private record Cli(int code, String out) {}

    private Cli cli(String... args) {
        var buffer = new ByteArrayOutputStream();
        int code = KeysCommand.run(args, config, Fixtures.PRICES, new PrintStream(buffer, true, StandardCharsets.UTF_8));
        return new Cli(code, buffer.toString(StandardCharsets.UTF_8));
    }
}
