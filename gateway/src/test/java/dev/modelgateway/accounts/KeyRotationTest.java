package dev.modelgateway.accounts;

import dev.modelgateway.accounts.keys.KeyToken;
import dev.modelgateway.cli.KeysCommand;
import dev.modelgateway.error.GatewayException;
import dev.modelgateway.testing.TestClock;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.modelgateway.accounts.Fixtures.await;
import static dev.modelgateway.accounts.Fixtures.failure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A platform key rotated through the admin API and the CLI, on SQLite and a test clock: a new secret for the same key,
 * the previous one accepted until the grace's last millisecond and refused from its end (docs/operations/key-rotation.md).
 */
class KeyRotationTest {
    private static final String MASTER = "master-secret-for-tests";

    @TempDir
    Path dir;
    private final TestClock clock = new TestClock(Instant.parse("2026-06-01T12:00:00Z"));
    private Vertx vertx;
    private AccountsConfig config;
    private Accounts accounts;
    private Fixtures.Server http;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        config = new AccountsConfig("jdbc:sqlite:" + dir.resolve("gateway.db"), null, MASTER);
        accounts = await(Accounts.open(vertx, config, Fixtures.PRICES, clock));
        http = Fixtures.Server.start(vertx, accounts);
    }

    @AfterEach
    void stop() {
        await(accounts.close());
        await(vertx.close());
    }

    @Test
    void theOldSecretWorksThroughItsGraceAndIsRefusedFromItsEnd() throws Exception {
        var created = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "svc").put("rpm", 60)
                .put("budget_usd", "5"));
        String id = created.json().getString("id");
        String old = created.json().getString("key");
        assertThat(await(accounts.authenticate(old)).id()).isEqualTo(id); // cached on this instance as the current secret

        var rotated = http.call("POST", "/api/v1/admin/keys/" + id + "/rotate", MASTER, new JsonObject().put("grace_seconds", 60));
        assertThat(rotated.status()).as(rotated.json().encode()).isEqualTo(200);
        String fresh = rotated.json().getString("key");
        assertThat(fresh).matches("pk-[A-Za-z0-9_-]{40}").isNotEqualTo(old);
        assertThat(rotated.json().getString("id")).isEqualTo(id);
        assertThat(rotated.json().getString("prefix")).isEqualTo(fresh.substring(0, 9));
        assertThat(rotated.json().getLong("rpm")).isEqualTo(60);
        assertThat(rotated.json().getString("budget_usd")).isEqualTo("5");
        assertThat(rotated.json().getJsonObject("previous_secret").getMap())
                .containsEntry("prefix", old.substring(0, 9)).containsEntry("accepted_until", "2026-06-01T12:01:00Z");
        // the listing never shows a secret again, and the store keeps hashes only
        var shown = http.get("/api/v1/admin/keys/" + id, MASTER);
        assertThat(shown.json().containsKey("key")).isFalse();
        assertThat(shown.json().getJsonObject("previous_secret").getString("prefix")).isEqualTo(old.substring(0, 9));
        try (Connection c = DriverManager.getConnection(config.databaseUrl()); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT key_hash, previous_key_hash FROM api_keys WHERE id = '" + id + "'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(KeyToken.hash(fresh));
            assertThat(rs.getString(2)).isEqualTo(KeyToken.hash(old));
        }

        // both secrets are the same key: one id, so one set of limits, one budget, one ledger
        ApiKey byNew = await(accounts.authenticate(fresh));
        ApiKey byOld = await(accounts.authenticate(old));
        assertThat(byNew.id()).isEqualTo(id);
        assertThat(byOld.id()).isEqualTo(id);
        assertThat(byOld.rpm()).isEqualTo(byNew.rpm()).isEqualTo(60);
        assertThat(byOld.secretAcceptedUntil()).isEqualTo(Instant.parse("2026-06-01T12:01:00Z"));
        assertThat(byNew.secretAcceptedUntil()).isNull();

        clock.advance(Duration.ofSeconds(60).minusMillis(1));
        assertThat(await(accounts.authenticate(old)).id()).as("the grace's last millisecond").isEqualTo(id);
        clock.advanceMillis(1);
        GatewayException refused = (GatewayException) failure(accounts.authenticate(old));
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.code()).isEqualTo("api_key_rotated");
        assertThat(refused.getMessage()).contains(old.substring(0, 9), id, "2026-06-01T12:01:00Z").doesNotContain(fresh);
        assertThat(await(accounts.authenticate(fresh)).id()).isEqualTo(id);
        // a long-lived call opened with the old secret (a realtime session) is refused at its next check
        assertThat(await(accounts.stillAllowed(byOld, "platform/vendorA-large"))).get()
                .extracting(GatewayException::code).isEqualTo("api_key_rotated");
        assertThat(await(accounts.stillAllowed(byNew, "platform/vendorA-large"))).isEmpty();

        var audit = http.get("/api/v1/admin/audit?target_id=" + id, MASTER).json().getJsonArray("data").getJsonObject(0);
        assertThat(audit.getString("action")).isEqualTo("key.rotate");
        assertThat(audit.getString("actor")).isEqualTo("master");
        assertThat(audit.getJsonObject("before").getMap()).containsOnly(java.util.Map.entry("prefix", old.substring(0, 9)));
        assertThat(audit.getJsonObject("after").getMap()).containsEntry("prefix", fresh.substring(0, 9))
                .containsEntry("previous_prefix", old.substring(0, 9))
                .containsEntry("previous_accepted_until", "2026-06-01T12:01:00Z");
        assertThat(audit.encode()).doesNotContain(KeyToken.hash(old), KeyToken.hash(fresh), fresh);
    }

    @Test
    void aSecondRotationEndsTheFirstGraceAtOnce() {
        var created = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "twice"));
        String id = created.json().getString("id");
        String first = created.json().getString("key");
        String second = http.call("POST", "/api/v1/admin/keys/" + id + "/rotate", MASTER, new JsonObject()).json().getString("key");
        var third = http.call("POST", "/api/v1/admin/keys/" + id + "/rotate", MASTER, new JsonObject().put("grace_seconds", 5));
        assertThat(third.json().getJsonObject("previous_secret").getString("prefix")).isEqualTo(second.substring(0, 9));

        assertThat(((GatewayException) failure(accounts.authenticate(first))).code()).isEqualTo("invalid_api_key");
        assertThat(await(accounts.authenticate(second)).id()).isEqualTo(id);
        assertThat(await(accounts.authenticate(third.json().getString("key"))).id()).isEqualTo(id);
    }

    @Test
    void aBadRotationIsRefusedNamingItsField() {
        String id = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "x")).json().getString("id");
        for (Object grace : new Object[]{4, 2_592_001, "soon", -1}) {
            var r = http.call("POST", "/api/v1/admin/keys/" + id + "/rotate", MASTER, new JsonObject().put("grace_seconds", grace));
            assertThat(r.status()).as(String.valueOf(grace)).isEqualTo(400);
            assertThat(r.error().getString("param")).isEqualTo("grace_seconds");
            assertThat(r.error().getString("message")).contains("from 5 to 2592000");
        }
        var unknown = http.call("POST", "/api/v1/admin/keys/" + id + "/rotate", MASTER, new JsonObject().put("grace", 60));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.error().getString("param")).isEqualTo("grace");
        var missing = http.call("POST", "/api/v1/admin/keys/key_nope/rotate", MASTER, new JsonObject());
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.error().getString("code")).isEqualTo("key_not_found");
        // an API key cannot rotate itself or another: the admin rule's 403
        String other = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "y")).json().getString("key");
        assertThat(http.call("POST", "/api/v1/admin/keys/" + id + "/rotate", other, new JsonObject()).status()).isEqualTo(403);
    }

    @Test
    void theCliRotatesAndPrintsTheNewSecretOnce() {
        String id = http.call("POST", "/api/v1/admin/keys", MASTER, new JsonObject().put("name", "cli")).json().getString("id");
        String old = http.call("GET", "/api/v1/admin/keys/" + id, MASTER, null).json().getString("prefix");

        Cli rotated = cli("keys", "rotate", id, "--grace-seconds", "120");
        assertThat(rotated.code()).as(rotated.out()).isEqualTo(KeysCommand.OK);
        Matcher key = Pattern.compile("key:  (pk-\\S+)").matcher(rotated.out());
        assertThat(key.find()).isTrue();
        assertThat(rotated.out()).contains("id:   " + id, "The previous secret (" + old + "...) is accepted until ");
        assertThat(await(accounts.authenticate(key.group(1))).id()).isEqualTo(id);
        assertThat(cli("keys", "audit", "--target", id).out()).contains("key.rotate", "cli:");

        assertThat(cli("keys", "rotate", id, "--grace-seconds", "1").code()).isEqualTo(KeysCommand.USAGE);
        assertThat(cli("keys", "rotate", "key_nope").code()).isEqualTo(KeysCommand.FAILED);
        assertThat(cli("keys", "rotate").code()).isEqualTo(KeysCommand.USAGE);
    }

    private record Cli(int code, String out) {}

    private Cli cli(String... args) {
        var buffer = new ByteArrayOutputStream();
        int code = KeysCommand.run(args, config, Fixtures.PRICES, new PrintStream(buffer, true, StandardCharsets.UTF_8));
        return new Cli(code, buffer.toString(StandardCharsets.UTF_8));
    }
}
