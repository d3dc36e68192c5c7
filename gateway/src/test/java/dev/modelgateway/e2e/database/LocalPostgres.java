package dev.modelgateway.e2e.database;

import dev.modelgateway.server.FreePort;
import dev.modelgateway.testing.Eventually;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL server of its own, made with this machine's binaries (Debian's {@code postgresql} package, which
 * {@code scripts/services.sh} installs) in a temporary directory, on a free loopback port: a primary, or a streaming
 * standby of one ({@code pg_basebackup -R}), that a test may kill ({@code pg_ctl stop -m immediate}) and promote. The
 * shared server on 5432 is never touched. PostgreSQL refuses to run as root, so as root (CI) every command runs as the
 * {@code postgres} OS user, as {@code scripts/services.sh} does ({@code runuser}). Connections are trusted on
 * loopback (the cluster lives only as long as the test).
 */
final class LocalPostgres implements AutoCloseable {
    static final String SUPERUSER = "postgres";
    private static final Path BIN = binaries();
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private final Path base;
    private final Path data;
    private final int port;
    private boolean running;

    private LocalPostgres(Path base, int port) {
        this.base = base;
        this.data = base.resolve("data");
        this.port = port;
    }

    /** A new cluster, started. */
    static LocalPostgres primary() {
        LocalPostgres pg = new LocalPostgres(ownDirectory(), FreePort.pick());
        // no fsync: the tests kill processes, not the machine, and a killed server loses nothing in the page cache
        pg.run(BIN.resolve("initdb").toString(), "-D", pg.data.toString(), "-A", "trust", "-U", SUPERUSER,
                "--no-sync", "-E", "UTF8", "--locale=C");
        pg.start();
        return pg;
    }

    /**
     * A streaming standby of this server, started: a base backup that {@code -R} makes a standby (standby.signal and
     * {@code primary_conninfo}), its WAL streamed.
     */
    LocalPostgres standby() {
        LocalPostgres standby = new LocalPostgres(ownDirectory(), FreePort.pick());
        run(BIN.resolve("pg_basebackup").toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", SUPERUSER,
                "-D", standby.data.toString(), "-R", "-X", "stream", "--no-sync");
        standby.start();
        return standby;
    }

    /**
     * Makes every commit wait until a standby has flushed it ({@code synchronous_standby_names}, with
     * {@code synchronous_commit} at its default {@code on}), once a standby streams synchronously. Set with ALTER
     * SYSTEM after the base backup, so that the standby, once promoted, does not wait for a standby of its own.
     */
    void requireSynchronousStandby() {
        sql("postgres", "ALTER SYSTEM SET synchronous_standby_names = '*'", "SELECT pg_reload_conf()");
        Eventually.until("a synchronous standby on " + port, Duration.ofSeconds(30),
                () -> "sync".equals(value("postgres", "SELECT sync_state FROM pg_stat_replication")));
    }

    /** Stops the server as a crash would: no checkpoint, connections cut, the standby left without its primary. */
    void kill() {
        run(BIN.resolve("pg_ctl").toString(), "stop", "-D", data.toString(), "-m", "immediate", "-w");
        running = false;
    }

    /** Turns a standby into a primary, waiting until it takes writes. */
    void promote() {
        run(BIN.resolve("pg_ctl").toString(), "promote", "-D", data.toString(), "-w", "-t", "60");
    }

    int port() {
        return port;
    }

    /** {@code host:port} for a JDBC URL. */
    String hostPort() {
        return "127.0.0.1:" + port;
    }

    String jdbcUrl(String database) {
        return "jdbc:postgresql://" + hostPort() + "/" + database + "?user=" + SUPERUSER;
    }

    void createDatabase(String name) {
        sql("postgres", "CREATE DATABASE " + name);
    }

    /** Runs statements as the superuser. */
    void sql(String database, String... statements) {
        try (Connection c = DriverManager.getConnection(jdbcUrl(database)); Statement st = c.createStatement()) {
            for (String s : statements) st.execute(s);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first column of the first row, or null. */
    String value(String database, String query) {
        try (Connection c = DriverManager.getConnection(jdbcUrl(database)); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(query)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs one of the server's client programs ({@code pg_dump}, {@code pg_restore}, {@code psql}) against it, as its
     * OS user, in {@code workDir} (writable by that user); its output, or an exception with it.
     */
    String client(Path workDir, String program, String... args) {
        List<String> command = new ArrayList<>(List.of(BIN.resolve(program).toString()));
        command.addAll(List.of(args));
        return runIn(workDir, command);
    }

    /** A directory the server's OS user may write, for a client program's files. */
    static Path ownDirectory() {
        try {
            Path dir = Files.createTempDirectory("gw-pg");
            if (ROOT) {
                UserPrincipalLookupService users = dir.getFileSystem().getUserPrincipalLookupService();
                Files.setOwner(dir, users.lookupPrincipalByName(SUPERUSER));
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            if (running) {
                run(BIN.resolve("pg_ctl").toString(), "stop", "-D", data.toString(), "-m", "immediate", "-w");
            }
        } finally {
            delete(base);
        }
    }

    private void start() {
        // its own socket directory: the system's may not exist, and another cluster's sockets are there
        String options = "-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=" + base
                + " -c fsync=off -c max_connections=50";
        run(BIN.resolve("pg_ctl").toString(), "start", "-D", data.toString(), "-w", "-t", "60",
                "-l", base.resolve("server.log").toString(), "-o", options);
        running = true;
    }

    private void run(String... command) {
        runIn(Path.of("/"), List.of(command));
    }

    private static String runIn(Path workDir, List<String> command) {
        List<String> full = new ArrayList<>();
        if (ROOT) full.addAll(List.of("runuser", "-u", SUPERUSER, "--"));
        full.addAll(command);
        try {
            Process p = new ProcessBuilder(full).directory(workDir.toFile()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + full);
            }
            String output = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) throw new IllegalStateException(full + " exited " + p.exitValue() + ":\n" + output);
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The newest installed major version's programs: Debian keeps them under /usr/lib/postgresql/N/bin. */
    private static Path binaries() {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.filter(v -> Files.isExecutable(v.resolve("bin/initdb")))
                    .max(Comparator.comparingInt(v -> Integer.parseInt(v.getFileName().toString())))
                    .map(v -> v.resolve("bin"))
                    .orElseThrow(() -> new IllegalStateException("no PostgreSQL under /usr/lib/postgresql (scripts/services.sh installs it)"));
        } catch (IOException e) {
            throw new UncheckedIOException("no PostgreSQL under /usr/lib/postgresql (scripts/services.sh installs it)", e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
