package dev.modelgateway.store;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Whether a database already has every migration of a {@link Schema}, read with one query of Flyway's history
 * table, so that a start on a current schema skips Flyway (its set-up, its scan of the jar for the migrations
 * and their validation cost a quarter of a second on one core, at every start). Anything else (no table yet, a
 * failed migration, a version behind the newest) is left to Flyway, which migrates or says what is wrong.
 */
final class SchemaHistory {
    private SchemaHistory() {
    }

    static boolean isCurrent(Connection c, Schema schema) {
        BigInteger[] newest = parse(schema.newestVersion());
        boolean reached = false;
        try (Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT version, success FROM " + schema.historyTable())) {
            while (rs.next()) {
                if (!rs.getBoolean(2)) return false;
                String version = rs.getString(1);
                if (version != null && compare(parse(version), newest) >= 0) reached = true;
            }
        } catch (SQLException | NumberFormatException e) {
            return false; // no history yet, or one Flyway should read itself
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
