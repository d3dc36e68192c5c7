package dev.modelgateway.store;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.e2e.SharedStores;
import dev.modelgateway.testing.ExternalStores;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The accounts schema's baseline migration ({@code B14__accounts.sql}), which a new database runs instead of the
 * versioned scripts: it must stay those scripts, and give the schema they give, on SQLite and on PostgreSQL.
 */
@ExternalStores
class BaselineMigrationTest {
    private static final Pattern VERSIONED = Pattern.compile("V(\\d+)__.*\\.sql");
    private static final Pattern BASELINE = Pattern.compile("B(\\d+)__.*\\.sql");

    @TempDir
    Path dir;

    @Test
    void theBaselineIsTheVersionedScriptsUpToItsVersionInOrder() throws Exception {
        Path migrations = Path.of(Database.class.getResource("/db/migration/accounts").toURI());
        List<Path> baselines = list(migrations, BASELINE);
        assertThat(baselines).hasSize(1);
        Path baseline = baselines.getFirst();
        int version = number(baseline, BASELINE);
        String text = Files.readString(baseline, StandardCharsets.UTF_8);
        // its own comment, a blank line, then each script under a line naming it
        StringBuilder scripts = new StringBuilder();
        for (Path v : list(migrations, VERSIONED)) {
            if (number(v, VERSIONED) > version) continue;
            scripts.append("\n-- ").append(v.getFileName()).append('\n').append(Files.readString(v, StandardCharsets.UTF_8));
        }
        int body = text.indexOf("\n\n-- V");
        assertThat(body).as("the baseline's comment ends before the first script").isPositive();
        assertThat(text.substring(body + 1)).isEqualTo(scripts.toString());
    }

    @Test
    void aNewSqliteDatabaseTakesTheBaselineAndGetsTheVersionedScriptsSchema() throws Exception {
        String viaBaseline = "jdbc:sqlite:" + dir.resolve("baseline.db");
        String viaVersions = "jdbc:sqlite:" + dir.resolve("versions.db");
        try (Database db = Database.open(viaBaseline, Accounts.SCHEMA)) {
            assertThat(db.call(BaselineMigrationTest::history)).isEqualTo(freshHistory());
        }
        migrateThroughVersions(viaVersions);
        assertThat(sqliteSchema(viaBaseline)).isNotEmpty().isEqualTo(sqliteSchema(viaVersions));
    }

    @Test
    void aNewPostgresSchemaTakesTheBaselineAndGetsTheVersionedScriptsSchema() throws Exception {
        try (SharedStores baselineStore = new SharedStores(); SharedStores versionsStore = new SharedStores()) {
            try (Database db = Database.open(baselineStore.databaseUrl(), Accounts.SCHEMA)) {
                assertThat(db.call(BaselineMigrationTest::history)).isEqualTo(freshHistory());
            }
            migrateThroughVersions(versionsStore.databaseUrl());
            assertThat(postgresSchema(baselineStore.databaseUrl())).isNotEmpty().isEqualTo(postgresSchema(versionsStore.databaseUrl()));
        }
    }

    @Test
    void aDatabaseStartedFromTheBaselineTakesTheNextVersionedMigration() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("next.db");
        Database.open(url, Accounts.SCHEMA).close();
        int next = Integer.parseInt(Accounts.SCHEMA.newestVersion()) + 1;
        Path later = Files.createDirectories(dir.resolve("later"));
        Files.writeString(later.resolve("V" + next + "__later.sql"), "CREATE TABLE later_table (id BIGINT PRIMARY KEY);\n");
        Flyway.configure().dataSource(url, null, null).locations(Accounts.SCHEMA.location(), "filesystem:" + later)
                .table(Accounts.SCHEMA.historyTable()).load().migrate();
        try (Database db = Database.open(url, Accounts.SCHEMA)) {
            List<String> expected = new ArrayList<>(freshHistory());
            expected.add(next + " SQL");
            assertThat(db.call(BaselineMigrationTest::history)).isEqualTo(expected);
        }
        assertThat(sqliteSchema(url)).anyMatch(row -> row.startsWith("table later_table"));
    }

    @Test
    void aPostgresSchemaSharedWithOtherTablesGetsTheSameSchema() throws Exception {
        try (SharedStores shared = new SharedStores(); SharedStores versionsStore = new SharedStores()) {
            try (Connection c = DriverManager.getConnection(shared.databaseUrl())) {
                c.createStatement().execute("CREATE TABLE someone_elses (id BIGINT PRIMARY KEY)");
            }
            Database.open(shared.databaseUrl(), Accounts.SCHEMA).close();
            migrateThroughVersions(versionsStore.databaseUrl());
            List<String> ours = postgresSchema(shared.databaseUrl()).stream().filter(row -> !row.contains("someone_elses")).toList();
            assertThat(ours).isNotEmpty().isEqualTo(postgresSchema(versionsStore.databaseUrl()));
        }
    }

    /**
     * What a database migrated by the gateway before the baseline existed went through: each versioned script in
     * turn. A Flyway that does not see the baseline (another prefix) applies the first; a history then exists, so
     * the gateway's own migration goes on with the versioned scripts.
     */
    private static void migrateThroughVersions(String url) throws Exception {
        Flyway.configure().dataSource(url, null, null).locations(Accounts.SCHEMA.location())
                .table(Accounts.SCHEMA.historyTable()).configuration(Map.of("flyway.baselineMigrationPrefix", "none"))
                .target("1").load().migrate();
        try (Database db = Database.open(url, Accounts.SCHEMA)) {
            List<String> history = db.call(BaselineMigrationTest::history);
            assertThat(history).hasSizeGreaterThan(1).allMatch(row -> row.endsWith(" SQL"));
            assertThat(history.getLast()).isEqualTo(Accounts.SCHEMA.newestVersion() + " SQL");
        }
    }

    /**
     * What a new database's history holds: the baseline, then each versioned script after it (a version later than
     * the baseline comes as its own migration, and the baseline is never edited).
     */
    private static List<String> freshHistory() throws Exception {
        Path migrations = Path.of(Database.class.getResource("/db/migration/accounts").toURI());
        int baseline = number(list(migrations, BASELINE).getFirst(), BASELINE);
        List<String> history = new ArrayList<>(List.of(baseline + " SQL_BASELINE"));
        for (Path v : list(migrations, VERSIONED)) {
            if (number(v, VERSIONED) > baseline) history.add(number(v, VERSIONED) + " SQL");
        }
        return history;
    }

    private static List<String> history(Connection c) throws SQLException {
        List<String> rows = new ArrayList<>();
        // success is an integer in SQLite and a boolean in PostgreSQL: read as a boolean, it is either
        try (ResultSet rs = c.createStatement().executeQuery("SELECT version, type, success FROM "
                + Accounts.SCHEMA.historyTable() + " ORDER BY installed_rank")) {
            while (rs.next()) {
                if (rs.getBoolean(3)) rows.add(rs.getString(1) + " " + rs.getString(2));
            }
        }
        return rows;
    }

    /** Every table, index and trigger with the SQL SQLite keeps for it (ALTER TABLE rewrites a table's). */
    private static List<String> sqliteSchema(String url) throws SQLException {
        return rows(url, "SELECT type || ' ' || name || ' ' || tbl_name || ': ' || COALESCE(sql, '') FROM sqlite_master"
                + " WHERE name NOT LIKE '%schema_history%' ORDER BY type, name");
    }

    /** Columns, constraints and index definitions of the connection's schema, its name left out. */
    private static List<String> postgresSchema(String url) throws SQLException {
        List<String> schema = new ArrayList<>(rows(url, "SELECT table_name || '.' || column_name || ' ' || data_type || ' '"
                + " || is_nullable || ' ' || COALESCE(column_default, '-') FROM information_schema.columns"
                + " WHERE table_schema = current_schema() AND table_name NOT LIKE '%schema_history%' ORDER BY 1"));
        schema.addAll(rows(url, "SELECT table_name || ' ' || constraint_name || ' ' || constraint_type"
                + " FROM information_schema.table_constraints WHERE table_schema = current_schema()"
                + " AND table_name NOT LIKE '%schema_history%' AND constraint_type <> 'CHECK' ORDER BY 1"));
        schema.addAll(rows(url, "SELECT replace(indexdef, current_schema() || '.', '') FROM pg_indexes"
                + " WHERE schemaname = current_schema() AND tablename NOT LIKE '%schema_history%' ORDER BY 1"));
        return schema;
    }

    private static List<String> rows(String url, String sql) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url); ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) rows.add(rs.getString(1));
        }
        return rows;
    }

    private static List<Path> list(Path dir, Pattern name) throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> name.matcher(f.getFileName().toString()).matches())
                    .sorted(Comparator.comparingInt(f -> number(f, name))).toList();
        }
    }

    private static int number(Path file, Pattern name) {
        Matcher m = name.matcher(file.getFileName().toString());
        if (!m.matches()) throw new IllegalArgumentException(file.toString());
        return Integer.parseInt(m.group(1));
    }
}
