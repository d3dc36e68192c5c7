package dev.modelgateway.e2e.database;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.accounts.Fixtures;
import dev.modelgateway.accounts.keys.KeyToken;
import dev.modelgateway.accounts.keys.KeyStore;
import dev.modelgateway.accounts.ledger.Ledger;
import dev.modelgateway.accounts.ledger.LedgerEntry;
import dev.modelgateway.canonical.Usage;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.LedgerRows;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.store.Database;
import dev.modelgateway.store.Schema;
import dev.modelgateway.store.Sql;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import io.vertx.core.Vertx;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upgrading across a migration and rolling back (docs/operations/upgrade-and-rollback.md), on the real migration
 * files: the release before this one is this gateway's store limited to the migrations up to the previous version
 * (its history check, and Flyway up to that version, as a build of that release has no later file). The upgrade
 * migrates and serves the old release's keys; the old release runs on the migrated database, because migrations only
 * add (store/MigrationsAreAdditiveTest); a newer release's contract migration makes this one refuse to start, naming
 * the versions, and restoring the backup taken before that upgrade is the rollback.
 */
@E2e
class UpgradeRollbackTest {
    static final String HISTORY = Accounts.SCHEMA.module() + "_schema_history";

    Vertx vertx;
    VendorSimulator sim;
    @TempDir
    Path data;
    @TempDir
    Path elsewhere;

    @BeforeEach
    void simulator() {
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
    }

    @AfterEach
    void stop() {
        vertx.close().await();
    }

    @Test
    void theUpgradeMigratesAndTheReleaseBeforeRunsOnTheMigratedDatabase() throws Exception {
        String previous = previousVersion();
        Schema releaseBefore = new Schema(Accounts.SCHEMA.module(), previous);
        String url = "jdbc:sqlite:" + data.resolve("gateway.db");
        // the release before: its first start, and a key as it stored one (this release's KeyStore reads columns the
        // release before did not have, so the row is written with the baseline's columns alone)
        String keyId = "key-from-" + previous;
        String secret = "pk-upgrade-" + HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        try (Database db = Database.open(url, releaseBefore); Connection c = DriverManager.getConnection(url);
             PreparedStatement insert = c.prepareStatement("INSERT INTO api_keys (id, name, key_hash, key_prefix, disabled,"
                     + " created_at_ms) VALUES (?, ?, ?, ?, 0, ?)")) {
            insert.setString(1, keyId);
            insert.setString(2, "from-" + previous);
            insert.setString(3, KeyToken.hash(secret));
            insert.setString(4, secret.substring(0, 10));
            insert.setLong(5, System.currentTimeMillis());
            assertThat(insert.executeUpdate()).isEqualTo(1);
        }
        assertThat(history(url).getLast()).isEqualTo(previous);

        // back up before the upgrade: the backup migrates nothing
        GatewayProcess.Result backup = GatewayProcess.run(env(), "backup", "--to", elsewhere.resolve("before-upgrade.db").toString());
        assertThat(backup.status()).as(backup.output()).isZero();
        assertThat(history(url).getLast()).isEqualTo(previous);

        try (GatewayProcess gateway = GatewayProcess.serve(env()); Callers callers = new Callers(gateway.baseUrl(), secret, 2)) {
            Eventually.until("the old release's key served by the new one", Duration.ofMinutes(1), () -> callers.answered() >= 20);
            callers.stop();
            Eventually.until("every row written", () -> new Admin(gateway.baseUrl()).metric("gateway_ledger_queue_depth") == 0);
        }
        List<String> upgraded = history(url);
        assertThat(upgraded.getLast()).as("migrated to this release's newest").isEqualTo(Accounts.SCHEMA.newestVersion());
        int rows = LedgerRows.read(url, keyId).size();
        assertThat(rows).isGreaterThanOrEqualTo(20);

        // roll the binary back: the release before starts on the migrated database, migrating nothing, and works
        try (Database db = Database.open(url, releaseBefore)) {
            assertThat(new KeyStore(Sql.pool(db)).list()).extracting(k -> k.id()).contains(keyId);
            LedgerEntry entry = LedgerEntry.of(Fixtures.usage(keyId, "platform/vendorA-large", new Usage(10, 0, 0, 0, 5, 0),
                    200, Instant.now()), 1234, "v", false);
            assertThat(new Ledger(db).append(List.of(entry))).isEqualTo(1);
        }
        assertThat(history(url)).as("no migration undone or redone").isEqualTo(upgraded);
        assertThat(LedgerRows.read(url, keyId)).hasSize(rows + 1);
    }

    @Test
    void aContractMigrationMakesTheReleaseBeforeRefuseAndTheBackupIsTheRollback() throws Exception {
        String url = "jdbc:sqlite:" + data.resolve("gateway.db");
        try (GatewayProcess gateway = GatewayProcess.serve(env())) {
            new Admin(gateway.baseUrl()).createKey("{\"name\":\"before-the-major\"}");
        }
        Path backup = elsewhere.resolve("before-upgrade.db");
        assertThat(GatewayProcess.run(env(), "backup", "--to", backup.toString()).status()).isZero();

        // a later major release renames a column this release's ledger writes
        String next = new BigInteger(Accounts.SCHEMA.newestVersion()).add(BigInteger.ONE).toString();
        Path later = Files.createDirectories(elsewhere.resolve("later"));
        Files.writeString(later.resolve("V" + next + "__contract_rename_ledger_attempts.sql"),
                "ALTER TABLE usage_ledger RENAME COLUMN attempts TO attempts_made;\n");
        Flyway.configure().dataSource(url, null, null).locations("classpath:db/migration/accounts", "filesystem:" + later)
                .table(HISTORY).load().migrate();

        GatewayProcess.Result refused = GatewayProcess.run(env(), "serve");
        assertThat(refused.status()).as(refused.output()).isEqualTo(1);
        assertThat(refused.output()).contains("the gateway could not start")
                .contains("accounts schema is at version " + next)
                .contains("migration " + next + " (contract rename ledger attempts)")
                .contains("this gateway (accounts schema version " + Accounts.SCHEMA.newestVersion() + ")")
                .contains("restoring the backup taken before the upgrade");

        // the rollback: the backup copied back over the database (its WAL and shared memory files removed)
        for (String suffix : List.of("", "-wal", "-shm")) Files.deleteIfExists(Path.of(data.resolve("gateway.db") + suffix));
        Files.copy(backup, data.resolve("gateway.db"));
        try (GatewayProcess gateway = GatewayProcess.serve(env())) {
            assertThat(history(url).getLast()).isEqualTo(Accounts.SCHEMA.newestVersion());
            assertThat(new Admin(gateway.baseUrl()).ready()).isEqualTo(200);
        }
    }

    private Map<String, String> env() {
        return new HashMap<>(Map.of("GATEWAY_SERVER_MASTER_KEY", GatewayHarness.KEY, "GATEWAY_SERVER_DATA_DIR", data.toString(),
                "ANTHROPIC_BASE_URL", sim.baseUrl() + "/anthropic", "ANTHROPIC_API_KEY", SimKeys.defaults().anthropic()));
    }

    /** The accounts migrations' version before the newest: the release before this one's newest. */
    private static String previousVersion() throws Exception {
        Path dir = Path.of(Database.class.getResource("/db/migration/accounts").toURI());
        try (Stream<Path> files = Files.list(dir)) {
            List<BigInteger> versions = files.map(f -> f.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .map(n -> new BigInteger(n.substring(1, n.indexOf("__")))).sorted().toList();
            assertThat(versions.getLast().toString()).isEqualTo(Accounts.SCHEMA.newestVersion());
            return versions.get(versions.size() - 2).toString();
        }
    }

    /** The versions applied, in version order. */
    private static List<String> history(String url) throws Exception {
        List<String> versions = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url); ResultSet rs = c.createStatement().executeQuery(
                "SELECT version FROM " + HISTORY + " WHERE success = 1 AND version IS NOT NULL")) {
            while (rs.next()) versions.add(rs.getString(1));
        }
        versions.sort(Comparator.comparing(BigInteger::new));
        return versions;
    }
}
