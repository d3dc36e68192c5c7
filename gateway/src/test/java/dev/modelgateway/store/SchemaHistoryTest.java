package dev.modelgateway.store;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.testing.ExternalStores;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExternalStores
class SchemaHistoryTest {
    private static final Schema SCHEMA = new Schema("sample", "4");
    /** The tests' PostgreSQL database (scripts/services.sh). */
    private static final String PG_BASE = "jdbc:postgresql://127.0.0.1:5432/gateway_test?user=gateway_test&password=gateway_test";

    @TempDir
    Path dir;
    private Connection c;

    @BeforeEach
    void connect() throws SQLException {
        c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("h.db"));
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    /** Rows {@code version[:success[:description]]}, as Flyway's history table has them. */
    private void history(String... rows) throws SQLException {
        c.createStatement().execute("CREATE TABLE sample_schema_history (version VARCHAR(50), success BOOLEAN,"
                + " description VARCHAR(200))");
        for (String row : rows) {
            String[] r = row.split(":");
            c.createStatement().execute("INSERT INTO sample_schema_history VALUES (" + (r[0].equals("null") ? "NULL" : "'" + r[0] + "'")
                    + ", " + (r.length > 1 ? r[1] : "1") + ", '" + (r.length > 2 ? r[2] : "migration " + r[0]) + "')");
        }
    }

    @Test
    void aNewDatabaseIsNotCurrent() {
        assertThat(SchemaHistory.isCurrent(c, SCHEMA)).isFalse();
    }

    @Test
    void aHistoryBehindTheNewestMigrationIsNotCurrent() throws SQLException {
        history("0", "1", "2", "3");
        assertThat(SchemaHistory.isCurrent(c, SCHEMA)).isFalse();
    }

    @Test
    void aHistoryAtTheNewestMigrationIsCurrent() throws SQLException {
        history("0", "1", "2", "3", "4", "null");
        assertThat(SchemaHistory.isCurrent(c, SCHEMA)).isTrue();
    }

    @Test
    void aHistoryAheadOfTheNewestMigrationIsCurrent() throws SQLException {
        // a newer gateway migrated this database; Flyway ignores such future migrations too
        history("1", "10");
        assertThat(SchemaHistory.isCurrent(c, SCHEMA)).isTrue();
        assertThat(SchemaHistory.isCurrent(c, new Schema("sample", "9.5"))).isTrue();
        assertThat(SchemaHistory.isCurrent(c, new Schema("sample", "10.1"))).isFalse();
    }

    @Test
    void aHistoryAheadByAContractMigrationRefusesNamingTheVersions() throws SQLException {
        // a newer gateway's migrations: 5 adds, 6 removes what version 4's gateway uses, 7 adds again
        history("1", "4", "5:1:add teams", "6:1:contract drop key prefix", "7:1:add alerts");
        assertThatThrownBy(() -> SchemaHistory.isCurrent(c, SCHEMA)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("sample schema is at version 7")
                .hasMessageContaining("migration 6 (contract drop key prefix)")
                .hasMessageContaining("this gateway (sample schema version 4)")
                .hasMessageContaining("restoring the backup taken before the upgrade");
        assertThat(SchemaHistory.isCurrent(c, new Schema("sample", "6"))).as("a gateway that knows the contraction").isTrue();
    }

    /** PostgreSQL: the history in the connection's schema, {@code success} a boolean. */
    @Test
    void aPostgresqlSchemaIsCurrentOnceMigrated() throws SQLException {
        String schema = "hist_" + Long.toHexString(System.nanoTime());
        try (Connection admin = DriverManager.getConnection(PG_BASE)) {
            admin.createStatement().execute("CREATE SCHEMA " + schema);
            try {
                String url = PG_BASE + "&currentSchema=" + schema;
                try (Connection pg = DriverManager.getConnection(url)) {
                    assertThat(SchemaHistory.isCurrent(pg, Accounts.SCHEMA)).isFalse();
                    Database.open(url, Accounts.SCHEMA).close();
                    assertThat(SchemaHistory.isCurrent(pg, Accounts.SCHEMA)).isTrue();
                }
            } finally {
                admin.createStatement().execute("DROP SCHEMA " + schema + " CASCADE");
            }
        }
    }

    @Test
    void aFailedMigrationIsLeftToFlyway() throws SQLException {
        history("1", "2", "3", "4", "5:0");
        assertThat(SchemaHistory.isCurrent(c, SCHEMA)).isFalse();
    }
}
