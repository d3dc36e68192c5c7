package dev.modelgateway.e2e.console;

import dev.modelgateway.e2e.GatewayHarness;
import dev.modelgateway.testing.E2e;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's tables are migrated at its first request (or a rollup period after the start), not during the
 * gateway's start-up, where they took the one core from the first requests (docs/performance.md, "Start-up").
 */
@E2e
class ConsoleStartTest {
    @Test
    void aNewDatabaseGetsTheConsoleTablesAtTheConsoleFirstRequest() throws Exception {
        String db = GatewayHarness.tempDatabaseUrl();
        try (GatewayHarness h = GatewayHarness.builder().database(db).start()) {
            assertThat(h.getAuthed("/api/v1/models").statusCode()).isEqualTo(200);
            assertThat(tableExists(db, "console_schema_history")).isFalse();

            HttpResponse<String> usage = h.getAuthed("/api/v1/console/usage?grain=hour&dimension=key");
            assertThat(usage.statusCode()).as(usage.body()).isEqualTo(200);
            assertThat(tableExists(db, "console_schema_history")).isTrue();
        }
    }

    private static boolean tableExists(String url, String table) throws SQLException {
        try (Connection c = DriverManager.getConnection(url);
             ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'")) {
            return rs.next() && rs.getInt(1) == 1;
        }
    }
}
