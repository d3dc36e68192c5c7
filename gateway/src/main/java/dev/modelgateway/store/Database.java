package dev.modelgateway.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.flywaydb.core.Flyway;
import org.sqlite.SQLiteConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A pooled JDBC database, SQLite (embedded default) or PostgreSQL (shared by several instances),
 * migrated by Flyway from one set of portable SQL scripts. Every method blocks: callers on a Vert.x
 * event loop go through {@code executeBlocking}.
 */
public final class Database implements AutoCloseable {

    public enum Vendor { SQLITE, POSTGRESQL }

    private final HikariDataSource pool;
    private final Vendor vendor;

    private Database(HikariDataSource pool, Vendor vendor) {
        this.pool = pool;
        this.vendor = vendor;
    }

    /**
     * Opens the pool and applies the schema's migrations not applied yet, each subsystem with its own history
     * so that subsystems migrate independently. Flyway runs only when the history does not already reach the
     * schema's newest version ({@link SchemaHistory}).
     */
    public static Database open(String jdbcUrl, Schema schema) {
        Vendor vendor = vendorOf(jdbcUrl);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName(schema.module() + "-db");
        if (vendor == Vendor.SQLITE) {
            createParentDirectory(jdbcUrl);
            // One connection makes this process SQLite's single writer; WAL keeps other processes'
            // readers (the CLI) unblocked, and busy_timeout makes their writes wait instead of failing.
            config.setMaximumPoolSize(1);
            config.addDataSourceProperty("journal_mode", "WAL");
            config.addDataSourceProperty("synchronous", "NORMAL");
            config.addDataSourceProperty("busy_timeout", "10000");
        } else {
            // Hikari's defaults follow a failover (docs/operations/database-failover.md): a connection that fails with
            // a connection error is dropped, one idle over 0.5 s is validated before use, and new ones are opened in
            // the background while a borrower waits up to 30 s; the URL's hosts and targetServerType find the primary.
            config.setMaximumPoolSize(8);
        }
        Database db = new Database(new HikariDataSource(config), vendor);
        try {
            db.migrate(schema);
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return db;
    }

    /**
     * Applies another subsystem's migrations to this database, with their own history, on the same pool (the
     * services' tables live beside the accounts' without a second pool). Blocking, like {@link #open}.
     */
    public void migrate(Schema schema) {
        try {
            boolean current;
            try (Connection c = pool.getConnection()) {
                current = SchemaHistory.isCurrent(c, schema);
            }
            if (!current) migrate(pool, vendor, schema);
        } catch (SQLException e) {
            throw new IllegalStateException("migration of " + schema.module() + " failed", e);
        }
    }

    /**
     * Several instances may start at once against one PostgreSQL (a rolling update): Flyway's own lock does not cover
     * creating and baselining the history table, so a session-level advisory lock serialises whole migrations; an
     * instance waiting for it does not listen yet (docs/operations/shutdown-and-rollouts.md). The lock is the schema's,
     * so that gateways on other schemas of the same database do not wait for each other.
     */
    private static void migrate(HikariDataSource pool, Vendor vendor, Schema schema) throws SQLException {
        Runnable flyway = () -> Flyway.configure()
                .dataSource(pool)
                .locations(schema.location())
                .table(schema.historyTable())
                // up to the version this gateway declares, as a release of that version has no later files
                .target(schema.newestVersion())
                // A database shared with other subsystems is not empty: start from 0 so V1 still runs.
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate();
        if (vendor != Vendor.POSTGRESQL) {
            flyway.run();
            return;
        }
        try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
            long lockId = migrationLock(schema, c.getSchema());
            st.execute("SELECT pg_advisory_lock(" + lockId + ")");
            try {
                flyway.run();
            } finally {
                st.execute("SELECT pg_advisory_unlock(" + lockId + ")");
            }
        }
    }

    /** The PostgreSQL advisory lock held while {@code schema}'s migrations run in {@code dbSchema}. */
    public static long migrationLock(Schema schema, String dbSchema) {
        return ("model-gateway:" + schema.module() + ":" + dbSchema).hashCode();
    }

    public Vendor vendor() {
        return vendor;
    }

    public <T> T call(SqlWork<T> work) throws SQLException {
        try (Connection c = pool.getConnection()) {
            return work.apply(c);
        }
    }

    /** Runs the work in one transaction, rolled back if it throws. */
    public <T> T transaction(SqlWork<T> work) throws SQLException {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.apply(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    @Override
    public void close() {
        pool.close();
    }

    /**
     * Writes a copy of the SQLite database at {@code jdbcUrl} to {@code file}, safely while a gateway serves from it:
     * {@code VACUUM INTO} reads the database in one read transaction, which WAL mode lets run beside the gateway's
     * writes, and writes a complete, compacted database file (no WAL beside it), which a restore copies back
     * (docs/operations/backup-and-restore.md). The connection is read-only and runs no migration, so that the backup
     * taken before an upgrade is the database as the old version left it. The copy is written beside {@code file} and
     * renamed, so that a backup cut short never stands under its name.
     *
     * @throws IllegalArgumentException for PostgreSQL, whose backup is {@code pg_dump}'s, for a file that exists, or
     *                                  for a database that does not
     */
    public static void backup(String jdbcUrl, Path file) throws SQLException, IOException {
        if (vendorOf(jdbcUrl) != Vendor.SQLITE) {
            throw new IllegalArgumentException("the database is PostgreSQL: back it up with pg_dump"
                    + " (docs/operations/backup-and-restore.md)");
        }
        String source = sqliteFile(jdbcUrl);
        if (source.isEmpty() || source.startsWith(":memory:") || !Files.isRegularFile(Path.of(source))) {
            throw new IllegalArgumentException("no SQLite database at " + source);
        }
        if (Files.exists(file)) throw new IllegalArgumentException(file + " exists; back up to a new file");
        Path partial = file.resolveSibling(file.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        SQLiteConfig readOnly = new SQLiteConfig();
        readOnly.setReadOnly(true);
        readOnly.setBusyTimeout(10_000);
        try (Connection c = DriverManager.getConnection(jdbcUrl, readOnly.toProperties());
             PreparedStatement st = c.prepareStatement("VACUUM INTO ?")) {
            st.setString(1, partial.toString());
            st.execute();
        }
        Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
    }

    static Vendor vendorOf(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) return Vendor.SQLITE;
        if (jdbcUrl.startsWith("jdbc:postgresql:")) return Vendor.POSTGRESQL;
        throw new IllegalArgumentException("unsupported database URL (want jdbc:sqlite: or jdbc:postgresql:): " + jdbcUrl);
    }

    /** The file of an SQLite URL, without its parameters. */
    private static String sqliteFile(String jdbcUrl) {
        String file = jdbcUrl.substring("jdbc:sqlite:".length());
        int query = file.indexOf('?');
        return query >= 0 ? file.substring(0, query) : file;
    }

    private static void createParentDirectory(String jdbcUrl) {
        String file = sqliteFile(jdbcUrl);
        if (file.isEmpty() || file.startsWith(":memory:") || file.startsWith("file:")) return;
        Path parent = Path.of(file).toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the database directory " + parent, e);
        }
    }
}
