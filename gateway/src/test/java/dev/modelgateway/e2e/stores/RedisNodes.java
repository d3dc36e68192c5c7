package dev.modelgateway.e2e.stores;

import dev.modelgateway.e2e.TestCert;
import dev.modelgateway.server.FreePort;
import dev.modelgateway.testing.Eventually;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code redis-server} processes on free loopback ports, each with its directory and log in one temporary directory,
 * all with one password; killed (SIGKILL) and the directory removed on close. {@code scripts/services.sh} installs
 * redis-server and redis-cli (Debian's redis-server and redis-tools).
 */
final class RedisNodes implements AutoCloseable {
    static final String PASSWORD = "pw-" + Long.toHexString(System.nanoTime());

    private final Path dir;
    private final Map<Integer, Process> processes = new LinkedHashMap<>();
    /** Null: plain TCP; else every node, replication and cluster bus speak TLS only, with this certificate. */
    private final TestCert tls;

    RedisNodes(String name) {
        this(name, null);
    }

    RedisNodes(String name, TestCert tls) {
        this.tls = tls;
        try {
            dir = Files.createTempDirectory(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A data node on a free port, with {@code extra} arguments; returns once it answers. */
    int startServer(String... extra) {
        int port = FreePort.pick();
        Path home = dir.resolve(Integer.toString(port));
        List<String> command = new ArrayList<>(List.of("redis-server", "--bind", "127.0.0.1"));
        if (tls == null) command.addAll(List.of("--port", Integer.toString(port)));
        else command.addAll(List.of("--port", "0", "--tls-port", Integer.toString(port), "--tls-cert-file", tls.certPem().toString(),
                "--tls-key-file", tls.keyPem().toString(), "--tls-ca-cert-file", tls.certPem().toString(), "--tls-auth-clients", "no",
                "--tls-replication", "yes", "--tls-cluster", "yes"));
        command.addAll(List.of("--dir", home.toString(), "--save", "", "--appendonly", "no", "--requirepass", PASSWORD, "--masterauth", PASSWORD,
                "--logfile", home.resolve("redis.log").toString()));
        command.addAll(List.of(extra));
        return start(port, home, command);
    }

    /** A Sentinel on a free port with {@code config} (its file must be writable: Sentinel rewrites it). */
    int startSentinel(String config) {
        int port = FreePort.pick();
        Path home = dir.resolve(Integer.toString(port));
        try {
            Files.createDirectories(home);
            String listen = tls == null ? "port " + port + "\n" : "port 0\ntls-port " + port + "\ntls-cert-file " + tls.certPem()
                    + "\ntls-key-file " + tls.keyPem() + "\ntls-ca-cert-file " + tls.certPem() + "\ntls-auth-clients no\ntls-replication yes\n";
            Files.writeString(home.resolve("sentinel.conf"), listen + "bind 127.0.0.1\ndir " + home + "\nlogfile "
                    + home.resolve("sentinel.log") + "\nrequirepass " + PASSWORD + "\n" + config);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return start(port, home, List.of("redis-server", home.resolve("sentinel.conf").toString(), "--sentinel"));
    }

    private int start(int port, Path home, List<String> command) {
        try {
            Files.createDirectories(home);
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(home.resolve("stdout.log").toFile()).start();
            processes.put(port, p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.getFirst() + " (scripts/services.sh installs it)", e);
        }
        Eventually.until("redis on " + port + " answers", Duration.ofSeconds(20), () -> cli(port, "PING").equals("PONG"));
        return port;
    }

    /** SIGKILL: the node dies as a crashed machine's would, nothing flushed or handed over. */
    void kill(int port) {
        Process p = processes.get(port);
        p.destroyForcibly();
        try {
            p.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Until every replica of the primary on {@code port} is online with no lag ({@code INFO replication}). */
    void awaitReplicated(int port) {
        Eventually.until("the replicas of " + port + " caught up", Duration.ofSeconds(30), () -> {
            List<String> replicas = cli(port, "INFO", "replication").lines().filter(l -> l.startsWith("slave")).toList();
            return !replicas.isEmpty() && replicas.stream().allMatch(l -> l.contains("state=online") && l.contains("lag=0"));
        });
    }

    /** {@code redis-cli} against the node on {@code port}: its output, trimmed; empty when it cannot connect. */
    String cli(int port, String... args) {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(cliOptions());
        command.addAll(List.of(args));
        return run(command);
    }

    /** redis-cli's password and, with TLS, its trust. */
    List<String> cliOptions() {
        List<String> options = new ArrayList<>(List.of("-a", PASSWORD, "--no-auth-warning"));
        if (tls != null) options.addAll(List.of("--tls", "--cacert", tls.certPem().toString()));
        return options;
    }

    static String run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS)) p.destroyForcibly();
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.getFirst() + " (scripts/services.sh installs redis-tools)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        processes.values().forEach(Process::destroyForcibly);
        for (Process p : processes.values()) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
