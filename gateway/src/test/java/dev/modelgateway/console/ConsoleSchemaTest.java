package dev.modelgateway.console;

import dev.modelgateway.accounts.Accounts;
import dev.modelgateway.store.Database;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The console's migrations: on the accounts database, with their own history, applied once. */
class ConsoleSchemaTest {
    @TempDir
    Path dir;

    /** Database.migrate skips Flyway when the history reaches this version, so it must be the newest migration. */
    @Test
    void theConsoleSchemaNamesItsNewestMigration() throws Exception {
        Path migrations = Path.of(Console.class.getResource("/db/migration/console").toURI());
        Pattern name = Pattern.compile("V(\\d+)__.*\\.sql");
        int newest;
        try (Stream<Path> files = Files.list(migrations)) {
            newest = files.map(f -> name.matcher(f.getFileName().toString())).filter(Matcher::matches)
                    .mapToInt(m -> Integer.parseInt(m.group(1))).max().orElseThrow();
        }
        assertThat(Console.SCHEMA.newestVersion()).isEqualTo(Integer.toString(newest));
    }

    @Test
    void migratesBesideTheAccountsTablesOnceWithItsOwnHistory() throws Exception {
        String url = "jdbc:sqlite:" + dir.resolve("a.db");
        for (int run = 0; run < 2; run++) {
            try (Database db = Database.open(url, Accounts.SCHEMA)) {
                db.migrate(Console.SCHEMA);
                int applied = db.call(c -> {
                    try (ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM console_schema_history WHERE version = '1'")) {
                        rs.next();
                        return rs.getInt(1);
                    }
                });
                assertThat(applied).isEqualTo(1);
                boolean anyRow = db.call(c -> c.createStatement().executeQuery("SELECT key_id FROM console_rollup").next());
                assertThat(anyRow).isFalse();
            }
        }
    }
}
