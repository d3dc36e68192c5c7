package dev.modelgateway.accounts;

import dev.modelgateway.error.GatewayException;
import dev.modelgateway.store.Database;
import io.vertx.core.json.JsonObject;
import org.slf4j.LoggerFactory;

import java.io.PrintStream;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code gateway keys ...}: key administration straight against the database, for when no server
 * runs or before the first admin key exists. A running server sees changes within
 * {@link Accounts#KEY_CACHE_TTL}.
 */
public final class KeysCommand {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private static final String HELP = """
            usage: keys create --name NAME [--models GLOB,GLOB] [--rpm N] [--tpm N] [--model-limits JSON]
                               [--budget USD] [--expires ISO-8601|DATE|EPOCH_SECONDS] [--max-concurrent N]
                     --max-concurrent N: calls in flight at once (default: the gateway's accounts.default_max_concurrent)
                     --model-limits '{"platform/vendorA-*": {"rpm": 10, "tpm": 50000}}': limits per model glob, on top of --rpm/--tpm
                   keys list
                   keys disable ID | keys enable ID | keys delete ID""";
    private static final Map<String, String> CREATE_FLAGS = Map.of("--name", "name", "--models", "models",
            "--rpm", "rpm", "--tpm", "tpm", "--model-limits", "model_limits", "--budget", "budget_usd", "--expires", "expires_at",
            "--max-concurrent", "max_concurrent");

    private KeysCommand() {}

    /** Runs one command; {@code args} may start with the word {@code keys}. Returns the process exit code. */
    public static int run(String[] args, AccountsConfig cfg, PrintStream out) {
        List<String> a = Arrays.asList(args);
        if (!a.isEmpty() && a.getFirst().equals("keys")) a = a.subList(1, a.size());
        if (a.isEmpty()) return usage(out, null);
        String command = a.getFirst();
        List<String> rest = a.subList(1, a.size());
        quietStoreLogs();
        try (Database db = Database.open(cfg.databaseUrl(), Accounts.SCHEMA)) {
            KeyStore keys = new KeyStore(db);
            return switch (command) {
                case "create" -> create(keys, rest, out);
                case "list" -> rest.isEmpty() ? list(keys, new Ledger(db), out) : usage(out, "list takes no arguments");
                case "disable", "enable", "delete" -> rest.size() == 1 ? change(keys, command, rest.getFirst(), out)
                        : usage(out, command + " takes one key id");
                default -> usage(out, "unknown command '" + command + "'");
            };
        } catch (GatewayException e) {
            out.println("error: " + e.getMessage());
            return USAGE;
        } catch (SQLException | RuntimeException e) {
            out.println("error: " + e.getMessage());
            return FAILED;
        }
    }

    private static int create(KeyStore keys, List<String> args, PrintStream out) throws SQLException {
        JsonObject body = new JsonObject();
        for (int i = 0; i < args.size(); i += 2) {
            String field = CREATE_FLAGS.get(args.get(i));
            if (field == null || i + 1 >= args.size()) return usage(out, "bad argument '" + args.get(i) + "'");
            body.put(field, args.get(i + 1));
        }
        KeyStore.CreatedKey created = keys.create(KeyRequests.create(body));
        out.println("id:   " + created.key().id());
        out.println("name: " + created.key().settings().name());
        out.println("key:  " + created.secret());
        out.println("Keep the key now: it is shown only this once (only its hash is stored).");
        return OK;
    }

    private static int list(KeyStore keys, Ledger ledger, PrintStream out) throws SQLException {
        Map<String, Long> spent = ledger.spentByKey();
        String format = "%-20s %-20s %-10s %-28s %8s %10s %10s %12s %14s %-20s %s%n";
        out.printf(format, "ID", "NAME", "PREFIX", "MODELS", "RPM", "TPM", "CONCURRENT", "BUDGET_USD", "SPENT_USD", "EXPIRES",
                "STATUS");
        for (StoredKey k : keys.list()) {
            KeySettings s = k.settings();
            out.printf(format, k.id(), s.name(), k.prefix(), s.allowedModels().isEmpty() ? "*" : String.join(",", s.allowedModels()),
                    orDash(s.rpm()), orDash(s.tpm()), s.maxConcurrent() == null ? "default" : s.maxConcurrent(), s.budgetUsd() == null ? "-" : s.budgetUsd().toPlainString(),
                    Money.text(spent.getOrDefault(k.id(), 0L)), orDash(s.expiresAt()), k.disabled() ? "disabled" : "active");
            for (ModelLimit l : s.modelLimits()) {
                out.printf("%-20s   models %s: rpm %s, tpm %s%n", "", l.models(), orDash(l.rpm()), orDash(l.tpm()));
            }
        }
        return OK;
    }

    private static int change(KeyStore keys, String command, String id, PrintStream out) throws SQLException {
        Optional<StoredKey> key = keys.find(id);
        if (key.isEmpty()) {
            out.println("error: no key with id '" + id + "'");
            return FAILED;
        }
        if (command.equals("delete")) {
            keys.delete(id);
        } else {
            keys.update(id, key.get().settings(), command.equals("disable"));
        }
        out.println(command + "d " + id);
        return OK;
    }

    /** The command's output is its answer (a key to copy), not the pool's and the migrator's progress reports. */
    private static void quietStoreLogs() {
        for (String name : List.of("com.zaxxer.hikari", "org.flywaydb")) {
            if (LoggerFactory.getLogger(name) instanceof ch.qos.logback.classic.Logger logger) {
                logger.setLevel(ch.qos.logback.classic.Level.WARN);
            }
        }
    }

    private static String orDash(Object v) {
        return v == null ? "-" : v.toString();
    }

    private static int usage(PrintStream out, String problem) {
        if (problem != null) out.println("error: " + problem);
        out.println(HELP);
        return USAGE;
    }
}
