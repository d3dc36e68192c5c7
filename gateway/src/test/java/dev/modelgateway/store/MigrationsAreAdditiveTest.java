package dev.modelgateway.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compatibility policy's rule for migrations (docs/compatibility-policy.md, "Database migrations"): each one
 * only adds (a table, an index, a nullable column or one with a default, rows), so that the previous release runs on
 * the migrated database and rolling back is starting it again (docs/operations/upgrade-and-rollback.md). A migration
 * that removes or changes something is a contract migration, named {@code V<n>__contract_<what>.sql}, allowed in a
 * major release only; an older gateway refuses to start on it ({@link SchemaHistory}).
 */
class MigrationsAreAdditiveTest {
    private static final List<Pattern> ADDITIVE = Stream.of(
            "CREATE TABLE \\w+ \\(.*\\)",
            "CREATE (UNIQUE )?INDEX \\w+ ON \\w+ ?\\(.*\\)( WHERE .*)?",
            "ALTER TABLE \\w+ ADD COLUMN \\w+ [^,]*",
            "INSERT INTO .*").map(p -> Pattern.compile(p, Pattern.CASE_INSENSITIVE)).toList();
    /** A column added NOT NULL needs its DEFAULT, or the previous release's inserts, which leave it out, fail. */
    private static final Pattern NOT_NULL_WITHOUT_DEFAULT = Pattern.compile("ADD COLUMN (?!.*DEFAULT).*NOT NULL",
            Pattern.CASE_INSENSITIVE);
    /** Migrations made before the first release (0.2.0), which no release can roll back to: the rule starts after them. */
    private static final Map<String, String> BEFORE_THE_FIRST_RELEASE = Map.of(
            "console/V2__team_cut.sql", "rebuilt the console's rollups with a team cut (derived data)");

    @Test
    void everyMigrationButAContractOneOnlyAdds() throws Exception {
        Path root = Path.of(Database.class.getResource("/db/migration").toURI());
        List<String> violations = new ArrayList<>();
        int checked = 0;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).sorted().toList()) {
                String name = root.relativize(file).toString().replace('\\', '/');
                if (BEFORE_THE_FIRST_RELEASE.containsKey(name) || file.getFileName().toString().matches("V\\d+__contract_.*")) {
                    continue;
                }
                checked++;
                for (String statement : statements(Files.readString(file, StandardCharsets.UTF_8))) {
                    boolean additive = ADDITIVE.stream().anyMatch(p -> p.matcher(statement).matches())
                            && !NOT_NULL_WITHOUT_DEFAULT.matcher(statement).find();
                    if (!additive) violations.add(name + ": " + statement);
                }
            }
        }
        assertThat(checked).isGreaterThan(10);
        assertThat(violations).as("migrations that remove or change what the previous release uses: name them"
                + " V<n>__contract_<what>.sql in a major release, or make them additive").isEmpty();
    }

    @Test
    void theRuleCatchesWhatWouldBreakARollback() {
        for (String breaking : List.of("DROP TABLE api_keys", "ALTER TABLE api_keys DROP COLUMN prefix",
                "ALTER TABLE api_keys RENAME COLUMN prefix TO key_prefix", "ALTER TABLE usage_ledger ALTER COLUMN status TYPE TEXT",
                "ALTER TABLE usage_ledger ADD COLUMN region VARCHAR(20) NOT NULL", "UPDATE api_keys SET disabled = 1")) {
            boolean additive = ADDITIVE.stream().anyMatch(p -> p.matcher(breaking).matches())
                    && !NOT_NULL_WITHOUT_DEFAULT.matcher(breaking).find();
            assertThat(additive).as(breaking).isFalse();
        }
        assertThat(NOT_NULL_WITHOUT_DEFAULT.matcher("ALTER TABLE t ADD COLUMN c BIGINT NOT NULL DEFAULT 0").find()).isFalse();
    }

    /** The statements of a script, comments dropped and white space made single spaces. */
    private static List<String> statements(String sql) {
        List<String> statements = new ArrayList<>();
        for (String s : sql.replaceAll("--[^\\n]*", "").split(";")) {
            String one = String.join(" ", s.strip().split("\\s+"));
            if (!one.isEmpty()) statements.add(one);
        }
        return statements;
    }
}
