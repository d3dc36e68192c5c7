package dev.modelgateway.e2e.accounts;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.console.Console;
import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.sim.SimKeys;
import dev.modelgateway.sim.VendorSimulator;
import dev.modelgateway.store.Database;
import dev.modelgateway.testing.E2e;
import dev.modelgateway.testing.Eventually;
import dev.modelgateway.testing.ExternalStores;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Migrations cannot race a rollout (docs/operations/shutdown-and-rollouts.md): two gateway processes start at the same
 * moment on one fresh, empty PostgreSQL schema. The test holds the accounts' migration lock until both wait for it, so
 * that they contend for certain; while they wait neither listens (no {@code /ready} before the schema is migrated);
 * released, both come up and serve, and each migration is in each history once.
 */
@E2e
@ExternalStores
@Isolated
class MigrationRaceTest {
    SharedStores stores;
    Vertx vertx;
    VendorSimulator sim;
    @TempDir
    Path journal;

    @BeforeEach
    void start() throws Exception {
        stores = new SharedStores();
        vertx = Vertx.vertx();
        sim = VendorSimulator.start(vertx, 0).await();
    }

    @AfterEach
    void stop() throws Exception {
        sim.close();
        vertx.close().await();
        stores.close();
    }

    @Test
    void twoGatewaysStartingAtOnceOnAnEmptySchemaMigrateItOnceAndBothServe() throws Exception {
        List<Process> gateways = new ArrayList<>();
        List<Integer> ports = List.of(FreePort.pick(), FreePort.pick());
        List<Path> logs = List.of(Files.createTempFile("gw-race-a", ".log"), Files.createTempFile("gw-race-b", ".log"));
        try (Connection holder = DriverManager.getConnection(stores.databaseUrl());
             HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            long lock = Database.migrationLock(Accounts.SCHEMA, holder.getSchema());
            try (Statement st = holder.createStatement()) {
                st.execute("SELECT pg_advisory_lock(" + lock + ")");
            }
            for (int i = 0; i < 2; i++) gateways.add(serve(ports.get(i), logs.get(i)));
            Eventually.until("both gateways wait for the migration lock", Duration.ofMinutes(1), () -> {
                gateways.forEach(g -> assertThat(g.isAlive()).as(read(logs.get(gateways.indexOf(g)))).isTrue());
                return waitingFor(holder, lock) == 2;
            });
            for (int port : ports) {
                assertThatThrownBy(() -> new Socket().connect(new InetSocketAddress("127.0.0.1", port), 1000))
                        .as("a gateway whose migration waits does not listen, so nothing finds it ready")
                        .isInstanceOf(ConnectException.class);
            }
            holder.close(); // releases the lock: the two race for it

            for (int i = 0; i < 2; i++) {
                Process g = gateways.get(i);
                Path log = logs.get(i);
                Eventually.until("gateway " + i + " started", Duration.ofMinutes(1), () -> {
                    assertThat(g.isAlive()).as(read(log)).isTrue();
                    return read(log).contains("listening on");
                });
                String base = "http://127.0.0.1:" + ports.get(i);
                assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/ready")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
                HttpResponse<String> call = http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/messages"))
                        .header("authorization", "Bearer " + GatewayHarness.KEY).header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"platform/vendorA-sonnet-4.5\",\"max_tokens\":32,"
                                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(call.statusCode()).as(call.body()).isEqualTo(200);
            }

            // the console's tables are migrated a rollup period after the start, by both, under the same kind of lock
            Map<String, Map<String, Integer>> histories = Eventually.value("the three histories", Duration.ofMinutes(1),
                    () -> histories(stores.databaseUrl()), h -> h.size() == 3
                            && h.get("console_schema_history").containsKey(Console.SCHEMA.newestVersion()));
            System.out.println("migration race: " + histories);
            histories.forEach((table, versions) -> assertThat(versions).as(table + ": each version once")
                    .allSatisfy((version, count) -> assertThat(count).isEqualTo(1)));
            assertThat(histories.get("accounts_schema_history")).containsKey(Accounts.SCHEMA.newestVersion());
            assertThat(histories.get("services_schema_history")).isNotEmpty();
            for (Process g : gateways) {
                g.destroy();
                assertThat(g.waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(g.exitValue()).isZero();
            }
        } finally {
            gateways.forEach(Process::destroyForcibly);
        }
    }

    /** Sessions waiting for the advisory lock {@code key} (PostgreSQL shows a bigint key as its two halves). */
    private static int waitingFor(Connection c, long key) {
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                + " AND NOT granted AND classid::bigint = ? AND objid::bigint = ? AND objsubid = 1")) {
            ps.setLong(1, (key >>> 32) & 0xffffffffL);
            ps.setLong(2, key & 0xffffffffL);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Each Flyway history table of the schema: its successful versions, each with how many rows name it. */
    private static Map<String, Map<String, Integer>> histories(String url) {
        Map<String, Map<String, Integer>> all = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = st.executeQuery("SELECT table_name FROM information_schema.tables"
                    + " WHERE table_schema = current_schema() AND table_name LIKE '%\\_schema\\_history' ORDER BY 1")) {
                while (rs.next()) tables.add(rs.getString(1));
            }
            for (String table : tables) {
                Map<String, Integer> versions = new LinkedHashMap<>();
                try (ResultSet rs = st.executeQuery("SELECT coalesce(version, description), count(*) FROM " + table
                        + " WHERE success GROUP BY 1 ORDER BY 1")) {
                    while (rs.next()) versions.put(rs.getString(1), rs.getInt(2));
                }
                all.put(table, versions);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return all;
    }

    private Process serve(int port, Path output) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.modelgateway.Main", "serve");
        pb.environment().putAll(Map.of("GATEWAY_SERVER_HOST", "127.0.0.1", "GATEWAY_SERVER_PORT", Integer.toString(port),
                "GATEWAY_SERVER_MASTER_KEY", GatewayHarness.KEY, "GATEWAY_ACCOUNTS_DATABASE_URL", stores.databaseUrl(),
                "GATEWAY_ACCOUNTS_LEDGER_JOURNAL_DIR", journal.resolve(Integer.toString(port)).toString(),
                "ANTHROPIC_BASE_URL", sim.baseUrl() + "/anthropic", "ANTHROPIC_API_KEY", SimKeys.defaults().anthropic()));
        pb.redirectErrorStream(true);
        pb.redirectOutput(output.toFile());
        return pb.start();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
