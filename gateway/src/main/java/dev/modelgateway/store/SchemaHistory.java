package dev.modelgateway.store;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a database already has every migration of a {@link Schema}, read with one query of Flyway's history
 * table, so that a start on a current schema skips Flyway (its set-up, its scan of the jar for the migrations
 * and their validation cost a quarter of a second on one core, at every start). Anything else (no table yet, a
 * failed migration, a version behind the newest) is left to Flyway, which migrates or says what is wrong.
 *
 * <p>A history ahead of the newest migration is a newer gateway's (docs/operations/upgrade-and-rollback.md): its
 * migrations only add (docs/compatibility-policy.md), so this gateway runs on it, unless one of them is a contract
 * migration ({@code V<n>__contract_<what>.sql}, a major release's), which removed or changed what this gateway uses:
 * then it refuses to start, naming the versions, and the rollback is the backup taken before the upgrade.
 */
final class SchemaHistory {
    /** How a migration that removes or changes what older gateways use is named: its description's first word. */
    static final String CONTRACT = "contract";

    private SchemaHistory() {
    }

    /** @throws IllegalStateException when a newer gateway's contract migration was applied */
    static boolean isCurrent(Connection c, Schema schema) {
        BigInteger[] newest = parse(schema.newestVersion());
        boolean reached = false;
        List<String> contracted = new ArrayList<>();
        String latest = schema.newestVersion();
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT version, success, description FROM " + schema.historyTable())) {
            while (rs.next()) {
                if (!rs.getBoolean(2)) return false;
                String version = rs.getString(1);
                if (version == null) continue;
                int order = compare(parse(version), newest);
                if (order >= 0) reached = true;
                if (order <= 0) continue;
                if (compare(parse(version), parse(latest)) > 0) latest = version;
                String description = rs.getString(3);
                if (description != null && description.toLowerCase(Locale.ROOT).startsWith(CONTRACT)) {
                    contracted.add(version + " (" + description + ")");
                }
            }
        } catch (SQLException | NumberFormatException e) {
            return false; // no history yet, or one Flyway should read itself
        }
        if (!contracted.isEmpty()) {
            throw new IllegalStateException("the " + schema.module() + " schema is at version " + latest + ", migrated by a"
                    + " newer gateway whose migration " + String.join(", ", contracted) + " removed or changed what this"
                    + " gateway (" + schema.module() + " schema version " + schema.newestVersion() + ") uses; run the newer"
                    + " gateway, or roll back by restoring the backup taken before the upgrade"
                    + " (docs/operations/upgrade-and-rollback.md)");
        }
        return reached;
    }

    /** Flyway's versions: numbers separated by dots, compared part by part ("1.10" is after "1.9"). */
    private static BigInteger[] parse(String version) {
        String[] parts = version.split("\\.");
        BigInteger[] numbers = new BigInteger[parts.length];
        for (int i = 0; i < parts.length; i++) numbers[i] = new BigInteger(parts[i]);
        return numbers;
    }

    private static int compare(BigInteger[] a, BigInteger[] b) {
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            BigInteger x = i < a.length ? a[i] : BigInteger.ZERO;
            BigInteger y = i < b.length ? b[i] : BigInteger.ZERO;
            int c = x.compareTo(y);
            if (c != 0) return c;
        }
        return 0;
    }
}
